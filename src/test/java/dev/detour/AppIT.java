package dev.detour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.testkit.MutableClock;
import dev.detour.testkit.TestApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class AppIT {
    @Test
    void migratedAppAnswersReadyAndHealthy() throws Exception {
        try (App app = TestApp.start(MutableClock.at("2026-11-29T10:00:00Z"))) {
            HttpClient client = HttpClient.newHttpClient();
            for (String path : new String[] {"/healthz", "/readyz"}) {
                HttpResponse<String> response = client.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, response.statusCode(), path);
            }
        }
    }

    /**
     * N-8: by default the front reads the public port (a relay request is its own, a probe goes to Jetty with its
     * connection); {@code detour.front=false} (DETOUR_FRONT=0) gives the port to Jetty alone, which serves both.
     */
    @Test
    void theFrontReadsThePortByDefaultAndTurnedOffJettyAloneServesTheSameAnswers() throws Exception {
        try (App app = TestApp.start(MutableClock.at("2026-11-29T10:00:00Z"))) {
            assertEquals(401, get(app, "/v1/models").statusCode());
            assertEquals(200, get(app, "/healthz").statusCode());
            String metrics = get(app, "/metrics").body();
            assertTrue(metrics.contains("detour_front_requests_total 1"), metrics);
            assertFalse(metrics.contains("detour_front_handoffs_total 0"), metrics);
        }
        String before = System.getProperty("detour.front");
        System.setProperty("detour.front", "false");
        try (App app = TestApp.start(MutableClock.at("2026-11-29T10:00:00Z"))) {
            assertEquals(401, get(app, "/v1/models").statusCode());
            assertEquals(200, get(app, "/healthz").statusCode());
            assertFalse(get(app, "/metrics").body().contains("detour_front_"));
        } finally {
            if (before == null) {
                System.clearProperty("detour.front");
            } else {
                System.setProperty("detour.front", before);
            }
        }
    }

    /** The JDK's default client: it offers h2c on a new connection, which the front declines (HTTP/1.1). */
    private static HttpResponse<String> get(App app, String path) throws Exception {
        return HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
