package dev.detour;

import dev.detour.config.ConfigException;
import dev.detour.config.ConfigLoader;
import dev.detour.config.DetourConfig;
import java.time.Clock;

/** Entry point: parse config → start DB → migrate → App → Jetty; SIGTERM closes the app. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        DetourConfig config;
        try {
            config = ConfigLoader.fromSystem();
        } catch (ConfigException e) {
            System.err.println("detour: configuration error: " + e.getMessage());
            System.exit(2);
            return;
        }
        App app = App.start(config, Clock.systemUTC());
        Runtime.getRuntime().addShutdownHook(new Thread(app::close, "detour-shutdown"));
    }
}
