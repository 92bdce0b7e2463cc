package dev.detour.galera;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.testkit.DetourProcess;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.GaleraCluster;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.NginxFront;
import dev.detour.fake.Reply;
import dev.detour.testkit.TestApp;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * G-3 first checks: three instances on the three-node cluster, each writing through a different node, nginx
 * round-robin in front. A state change made through one instance is honoured by requests arriving through the
 * others and through nginx. How long it took to show is printed (O-4: each instance reloads its snapshot when
 * the pool revision moved, checked every second); the waits are hang guards, not timing assertions.
 */
class CrossInstanceOnGaleraIT {
    private static final String COOLED = "gpt-cooled";
    private static final String PAUSED = "gpt-paused";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static FakeUpstream upstream;
    private static List<DetourProcess> instances = new ArrayList<>();
    private static NginxFront nginx;
    private static String key;
    private static long accountId;

    @BeforeAll
    static void startInstancesBehindNginx() throws Exception {
        GaleraCluster cluster = GaleraCluster.shared();
        cluster.emptySchema();
        upstream = FakeUpstream.start();
        upstream.handler(r -> Reply.chatCompletion());
        instances = cluster.startInstances("galera-cross", 3, Map.of());
        nginx = NginxFront.start("galera-nginx", instances);

        DetourProcess first = instances.get(0);
        admin(first, "POST", "/groups", "{\"name\":\"default\"}");
        JsonNode account = admin(first, "POST", "/accounts", "{\"name\":\"a\",\"group\":\"default\",\"platform\":"
                + "\"openai-compatible\",\"base_url\":\"" + upstream.url() + "\",\"api_key\":\"sk-test-galera\","
                + "\"model_mappings\":[{\"from\":\"" + COOLED + "\",\"to\":\"" + COOLED + "\"},{\"from\":\""
                + PAUSED + "\",\"to\":\"" + PAUSED + "\"}]}");
        accountId = account.path("id").asLong();
        key = admin(first, "POST", "/keys", "{\"name\":\"galera-key\"}").path("key").asText();
        for (DetourProcess instance : instances) { // each snapshot picks the new pool up within its refresh
            Gateway.await(() -> status(instance.url(), COOLED) == 200, "instance " + instance + " serves");
        }
    }

    @AfterAll
    static void stopAll() {
        if (nginx != null) {
            nginx.close();
        }
        instances.forEach(DetourProcess::close);
        if (upstream != null) {
            upstream.close();
        }
    }

    @Test
    void aRateLimitThroughInstanceOneCoolsTheRouteForRequestsThroughInstancesTwoAndThreeAndNginx() throws Exception {
        upstream.enqueue(Reply.openAiError(429, "rate limit reached", "rate_limit_exceeded")
                .header("retry-after", "600"));
        HttpResponse<String> first = chat(instances.get(0).url(), COOLED);
        assertEquals(429, first.statusCode(), first.body());
        long cooledAt = System.nanoTime();

        // watched on each instance's public /status (its own snapshot), not by requests: a request answered
        // 200 before the cooldown showed would be a success of its own, and this checks what was written
        for (DetourProcess other : instances.subList(1, 3)) {
            Gateway.await(() -> statusPage(other.url()).contains("\"model\":\"" + COOLED + "\""),
                    other + " shows the cooldown written through instance 1");
        }
        System.out.println("G-3 cooldown through instance 1 shown by instances 2 and 3 after "
                + Duration.ofNanos(System.nanoTime() - cooledAt).toMillis() + " ms");

        int calls = upstream.requestCount();
        for (int i = 0; i < 6; i++) { // nginx's round robin reaches every instance
            assertEquals("route_pool.rate_limited", errorCode(nginx.url(), COOLED), "through nginx, request " + i);
        }
        for (DetourProcess instance : instances) {
            assertEquals("route_pool.rate_limited", errorCode(instance.url(), COOLED), "through " + instance);
        }
        assertEquals(calls, upstream.requestCount(), "inside the stated window no instance calls the upstream");
    }

    @Test
    void aPauseMadeThroughInstanceThreeStopsTrafficThroughInstancesOneAndTwo() throws Exception {
        JsonNode paused = admin(instances.get(2), "POST", "/accounts/" + accountId + "/models/"
                + URLEncoder.encode(PAUSED, StandardCharsets.UTF_8) + "/pause", null);
        assertEquals(1, paused.path("changed").asInt(), paused.toString());
        long pausedAt = System.nanoTime();

        for (DetourProcess other : instances.subList(0, 2)) {
            Gateway.await(() -> status(other.url(), PAUSED) != 200, other + " honours the pause made through instance 3");
        }
        System.out.println("G-3 pause through instance 3 honoured by instances 1 and 2 after "
                + Duration.ofNanos(System.nanoTime() - pausedAt).toMillis() + " ms");

        int calls = upstream.requestCount();
        for (int i = 0; i < 6; i++) {
            assertNotEquals(200, status(nginx.url(), PAUSED), "through nginx, request " + i);
        }
        for (DetourProcess instance : instances) {
            assertNotEquals(200, status(instance.url(), PAUSED), "through " + instance);
        }
        assertEquals(calls, upstream.requestCount(), "a paused route reaches the upstream through no instance");
    }

    private static HttpResponse<String> chat(String base, String model) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model
                        + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static int status(String base, String model) {
        try {
            return chat(base, model).statusCode();
        } catch (IOException | InterruptedException e) {
            return -1;
        }
    }

    private static String statusPage(String base) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(base + "/status")).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException | InterruptedException e) {
            return e.toString();
        }
    }

    private static String errorCode(String base, String model) {
        try {
            HttpResponse<String> response = chat(base, model);
            return response.statusCode() == 200 ? "served" : JSON.readTree(response.body()).path("error").path("code").asText();
        } catch (IOException | InterruptedException e) {
            return e.toString();
        }
    }

    private static JsonNode admin(DetourProcess instance, String method, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(instance.url() + "/admin/api" + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertTrue(response.statusCode() / 100 == 2, method + " " + path + " → " + response.statusCode() + " " + response.body());
        return JSON.readTree(response.body());
    }
}
