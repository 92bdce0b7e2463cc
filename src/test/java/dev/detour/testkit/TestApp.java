package dev.detour.testkit;

import dev.detour.App;
import dev.detour.config.DetourConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;

/** Starts the real App on port 0 against the shared test MariaDB, with fixed test secrets. */
public final class TestApp {
    public static final String ADMIN_TOKEN = "test-admin-token-0123456789abcdef";
    public static final String ADMIN_PASSWORD = "test-password-123";
    public static final byte[] MASTER_KEY = Base64.getDecoder().decode("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=");

    private TestApp() {
    }

    public static DetourConfig config() {
        var db = TestDatabase.server();
        TestDatabase.database();
        return DetourConfig.defaults(Path.of("target/it-data"), 0)
                .withDatabase(db.jdbcUrl(), db.user(), db.password())
                .withSecrets(MASTER_KEY, ADMIN_PASSWORD, ADMIN_TOKEN);
    }

    public static App start(Clock clock) {
        return App.start(config(), clock);
    }

    public static App start(DetourConfig config, Clock clock) {
        return App.start(config, clock);
    }
}
