package dev.detour.galera;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.testkit.DetourProcess;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.NginxFront;
import dev.detour.fake.Reply;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
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
    private static GaleraPool pool;
    private static FakeUpstream upstream;
    private static List<DetourProcess> instances;
    private static NginxFront nginx;
    private static long accountId;

    @BeforeAll
    static void startInstancesBehindNginx() throws Exception {
        pool = GaleraPool.start("galera-cross", "", List.of(COOLED, PAUSED));
        upstream = pool.upstream;
        instances = pool.instances;
        nginx = pool.nginx;
        accountId = pool.accountId;
    }

    @AfterAll
    static void stopAll() {
        if (pool != null) {
            pool.close();
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
        return pool.chat(base, model);
    }

    private static int status(String base, String model) {
        return pool.status(base, model);
    }

    private static String statusPage(String base) {
        try {
            return GaleraPool.HTTP.send(HttpRequest.newBuilder(URI.create(base + "/status")).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException | InterruptedException e) {
            return e.toString();
        }
    }

    private static String errorCode(String base, String model) {
        try {
            HttpResponse<String> response = chat(base, model);
            return response.statusCode() == 200 ? "served" : GaleraPool.JSON.readTree(response.body()).path("error").path("code").asText();
        } catch (IOException | InterruptedException e) {
            return e.toString();
        }
    }

    private static JsonNode admin(DetourProcess instance, String method, String path, String body) throws Exception {
        return GaleraPool.admin(instance, method, path, body);
    }
}
