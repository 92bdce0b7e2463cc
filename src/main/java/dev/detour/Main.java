package dev.detour;

import dev.detour.config.ConfigException;
import dev.detour.config.ConfigLoader;
import dev.detour.config.DetourConfig;
import dev.detour.demo.DemoMode;
import java.time.Clock;

/** Entry point: parse config → start DB → migrate → App → Jetty; SIGTERM closes the app in order (D-3). */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        App app;
        DetourConfig config;
        try {
            config = ConfigLoader.fromSystem();
            app = App.start(config, Clock.systemUTC());
        } catch (ConfigException e) {
            // O-1: bad configuration fails at start-up with one line naming the variable
            System.err.println("detour: configuration error: " + e.getMessage());
            System.exit(2);
            return;
        }
        Shutdown.install(app); // D-3: SIGTERM stops in order and exits 0
        // on standard output, like the first-run secrets: the one line a newcomer under `mvnw -q` sees
        String origin = "http://" + DemoMode.loopbackHost(config.bind()) + ":" + app.port();
        System.out.println("Detour is ready: console " + origin + "/ (OpenAI/Anthropic-compatible API at " + origin
                + "/v1)");
    }
}
