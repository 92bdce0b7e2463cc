package dev.detour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.config.ConfigException;
import dev.detour.config.DetourConfig;
import dev.detour.testkit.MutableClock;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TestDirs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** O-1: with no DETOUR_DB_URL Detour runs its own MariaDB under the data dir, and data survives a restart. */
class EmbeddedRestartIT {
    private static final Path DATA = TestDirs.embeddedRoot("it-embedded-restart");

    @Test
    void aRestartAgainstTheSameDataDirectoryKeepsAccounts() throws Exception {
        // a data dir left by an older build may hold other migrations: start this test from scratch
        deleteTree(DATA.resolve("mariadb/data"));
        deleteTree(DATA.resolve("master.key"));
        DetourConfig config = DetourConfig.defaults(DATA, 0)
                .withSecrets(TestApp.MASTER_KEY, TestApp.ADMIN_PASSWORD, TestApp.ADMIN_TOKEN);
        MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
        String name = "restart-" + System.nanoTime();
        try (App first = App.start(config, clock)) {
            assertEquals(201, call(first, "POST", "/admin/api/groups", "{\"name\":\"" + name + "\"}").statusCode());
            assertEquals(201, call(first, "POST", "/admin/api/accounts", "{\"name\":\"" + name + "\",\"group\":\""
                    + name + "\",\"platform\":\"openai\",\"base_url\":\"https://api.example\","
                    + "\"api_key\":\"sk-restart-key-0001\"}").statusCode());
        }
        assertTrue(Files.isDirectory(DATA.resolve("mariadb/data")), "the database files live under the data dir");
        try (App second = App.start(config, clock)) {
            String accounts = call(second, "GET", "/admin/api/accounts", null).body();
            assertTrue(accounts.contains("\"" + name + "\""), accounts);
        }
    }

    @Test
    void aDataDirectoryUnderTheTempFolderIsRefusedBecauseMariaDb4jWouldWipeIt() {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"), "detour-data");
        ConfigException e = assertThrows(ConfigException.class,
                () -> App.start(DetourConfig.defaults(tmp, 0), MutableClock.at("2026-11-29T10:00:00Z")));
        assertTrue(e.getMessage().startsWith("DETOUR_DATA_DIR"));
    }

    private static void deleteTree(Path path) throws java.io.IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (var files = Files.walk(path)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static HttpResponse<String> call(App app, String method, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }
}
