package dev.detour.testkit;

import dev.detour.App;
import dev.detour.config.DetourConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;

/** Starts the real App on port 0 against the shared test MariaDB, with fixed test secrets. */
public final class TestApp {
    public static final String ADMIN_TOKEN = "test-admin-token-0123456789abcdef";
    public static final String ADMIN_PASSWORD = "test-password-123";
    public static final byte[] MASTER_KEY = Base64.getDecoder().decode("MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=");

    private static final AtomicInteger STARTS = new AtomicInteger();

    private TestApp() {
    }

    /**
     * The test config on a data dir of its own: a fresh App (on a cleaned database) must not replay the
     * local journals another test's App left (D-1/D-2 journals live in the data dir; an App closed while a
     * recovery probe was still logging leaves events that the next App on the same dir would write into
     * the next test's database). {@link Gateway#restart} keeps its App's dir, as a real restart does.
     */
    public static DetourConfig config() {
        var db = TestDatabase.server();
        TestDatabase.database();
        return DetourConfig.defaults(freshDataDir(), 0)
                .withDatabase(db.jdbcUrl(), db.user(), db.password())
                .withSecrets(MASTER_KEY, ADMIN_PASSWORD, ADMIN_TOKEN)
                .withAlertPrivateTargets(true); // W-1: the tests' alert receivers and SMTP server are on loopback
    }

    private static Path freshDataDir() {
        Path dir = Path.of("target", "it-data", "app-" + ProcessHandle.current().pid() + "-" + STARTS.incrementAndGet());
        try {
            if (Files.exists(dir)) {
                try (var walk = Files.walk(dir)) {
                    for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    public static App start(Clock clock) {
        return App.start(config(), clock);
    }

    public static App start(DetourConfig config, Clock clock) {
        return App.start(config, clock);
    }
}
