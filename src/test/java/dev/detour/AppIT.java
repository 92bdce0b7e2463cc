package dev.detour;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
