package dev.detour.gateway;

import dev.detour.App;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** A chat request against any App instance (a second or restarted one). */
final class Forwarding {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Forwarding() {
    }

    static HttpResponse<String> chat(App app, String key, String model) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port()
                    + "/v1/chat/completions")).header("Authorization", "Bearer " + key)
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                            "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

}
