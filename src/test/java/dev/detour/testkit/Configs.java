package dev.detour.testkit;

import dev.detour.config.DetourConfig;
import java.time.Duration;
import java.util.List;

/** Test configs differing from {@link TestApp#config()} in one operating field. */
public final class Configs {
    private Configs() {
    }

    public static DetourConfig withTrustedProxies(List<String> proxies) {
        DetourConfig c = TestApp.config();
        return new DetourConfig(c.bind(), c.port(), c.dataDir(), c.dbUrl(), c.dbUser(), c.dbPassword(), c.masterKey(),
                c.adminPassword(), c.adminToken(), c.connectTimeout(), c.readTimeout(), c.recoveryTick(), proxies,
                c.shutdownGrace());
    }

    public static DetourConfig withShutdownGrace(Duration grace) {
        DetourConfig c = TestApp.config();
        return new DetourConfig(c.bind(), c.port(), c.dataDir(), c.dbUrl(), c.dbUser(), c.dbPassword(), c.masterKey(),
                c.adminPassword(), c.adminToken(), c.connectTimeout(), c.readTimeout(), c.recoveryTick(),
                c.trustedProxies(), grace);
    }
}
