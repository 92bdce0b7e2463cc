package dev.detour.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The demo relays over real loopback HTTP: routing by path, the key check, buffered and SSE answers. */
class DemoUpstreamIT {
    private static final String KEY = "sk-demo-test-0001";
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private DemoUpstream upstream;

    @BeforeEach
    void start() {
        upstream = DemoUpstream.start();
    }

    @AfterEach
    void stop() {
        upstream.close();
    }

    private HttpResponse<String> chat(String url, String key, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String body(String model, boolean stream) {
        return "{\"model\":\"" + model + "\",\"stream\":" + stream + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    }

    @Test
    void listensOnALoopbackEphemeralPortWithOneBaseUrlPerBehaviour() {
        assertNotEquals(0, upstream.port());
        assertEquals("http://127.0.0.1:" + upstream.port() + "/rate-limited", upstream.url(DemoBehaviour.RATE_LIMITED));
    }

    @Test
    void theHealthyRelayAnswersABufferedChatCompletion() throws Exception {
        HttpResponse<String> r = chat(upstream.url(DemoBehaviour.HEALTHY), KEY, body("gpt-4o", false));
        assertEquals(200, r.statusCode());
        assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow());
        assertTrue(r.body().contains("\"object\":\"chat.completion\""), r.body());
        assertTrue(r.body().contains("Hello from the demo relay 'healthy'."), r.body());
    }

    @Test
    void aStreamingRequestGetsServerSentEventsEndingInDone() throws Exception {
        HttpResponse<String> r = chat(upstream.url(DemoBehaviour.HEALTHY), KEY, body("gpt-4o", true));
        assertEquals(200, r.statusCode());
        assertEquals("text/event-stream", r.headers().firstValue("content-type").orElseThrow());
        List<String> frames = r.body().lines().filter(l -> l.startsWith("data: ")).collect(Collectors.toList());
        assertEquals(8, frames.size(), r.body());
        assertEquals("data: [DONE]", frames.get(frames.size() - 1));
        assertTrue(frames.get(frames.size() - 2).contains("\"finish_reason\":\"stop\""));
    }

    @Test
    void theRateLimitedRelayRefusesOnlyItsOneModelWithRetryAfter() throws Exception {
        String url = upstream.url(DemoBehaviour.RATE_LIMITED);
        HttpResponse<String> limited = chat(url, KEY, body(DemoBehaviour.RATE_LIMITED_MODEL, false));
        assertEquals(429, limited.statusCode());
        assertEquals("120", limited.headers().firstValue("retry-after").orElseThrow());
        assertTrue(limited.body().contains("rate_limit_exceeded"));
        assertEquals(200, chat(url, KEY, body("gpt-4o-mini-2024-07-18", true)).statusCode());
    }

    @Test
    void theFlakyAndBudgetPoolRelaysFailWithTheirEnvelopes() throws Exception {
        HttpResponse<String> flaky = chat(upstream.url(DemoBehaviour.FLAKY), KEY, body("deepseek-v3", true));
        assertEquals(502, flaky.statusCode());
        assertTrue(flaky.body().contains("\"code\":\"bad_gateway\""));
        HttpResponse<String> pool = chat(upstream.url(DemoBehaviour.BUDGET_POOL), KEY, body("gpt-4o-mini", false));
        assertEquals(500, pool.statusCode());
        assertEquals(DemoReplies.BUDGET_POOL_BODY, pool.body());
    }

    @Test
    void aKeyThatIsNotADemoKeyAnUnknownPathAndABodyWithoutModelAreRefused() throws Exception {
        assertEquals(401, chat(upstream.url(DemoBehaviour.HEALTHY), "sk-real-key", body("gpt-4o", false)).statusCode());
        assertEquals(404, chat("http://127.0.0.1:" + upstream.port() + "/nowhere", KEY, body("gpt-4o", false))
                .statusCode());
        assertEquals(400, chat(upstream.url(DemoBehaviour.HEALTHY), KEY, "not json").statusCode());
    }
}
