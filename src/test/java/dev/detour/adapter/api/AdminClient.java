package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.App;
import dev.detour.testkit.TestApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** A real HTTP client for /admin/api on a running App, authenticated with the test admin token. */
final class AdminClient {
    static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private final String base;
    private final String token;

    AdminClient(App app) {
        this(app, TestApp.ADMIN_TOKEN);
    }

    AdminClient(App app, String token) {
        this.base = "http://127.0.0.1:" + app.port() + "/admin/api";
        this.token = token;
    }

    Response get(String path) {
        return send("GET", path, null);
    }

    Response post(String path, Object body) {
        return send("POST", path, body);
    }

    Response put(String path, Object body) {
        return send("PUT", path, body);
    }

    Response delete(String path) {
        return send("DELETE", path, null);
    }

    Response send(String method, String path, Object body) {
        try {
            String text = body == null ? null : body instanceof String s ? s : JSON.writeValueAsString(body);
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path))
                    .method(method, text == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(text))
                    .header("Content-Type", "application/json");
            if (token != null) {
                builder.header("Authorization", "Bearer " + token);
            }
            HttpResponse<String> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            String raw = response.body();
            JsonNode json = raw == null || raw.isEmpty() ? null : JSON.readTree(raw);
            return new Response(response.statusCode(), json, raw == null ? "" : raw);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    record Response(int status, JsonNode json, String raw) {
        String errorCode() {
            return json == null ? null : json.path("error").path("code").asText(null);
        }

        long id() {
            return json.path("id").asLong();
        }
    }
}
