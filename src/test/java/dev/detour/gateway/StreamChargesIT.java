package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.Bodies;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.OneUpstreamCase;
import dev.detour.testkit.RawHttpClient;
import dev.detour.fake.Reply;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * P-7' over real HTTP: a stream the client cancels, or the upstream cuts, after its usage arrived costs
 * the event and the key exactly what the completed stream costs; a spend limit reached that way refuses
 * the next request; a stream that ended before any usage is flagged {@code usage_missing}.
 */
class StreamChargesIT extends OneUpstreamCase {
    static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    static final String STREAM = "{\"model\":\"gpt-5.6-sol\",\"stream\":true,\"messages\":[]}";
    /** 700 in × 1 micro + 300 out × 2 micros = 1,300 micros. */
    static final long COST = 1_300;
    static final String USAGE = "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
            + "\"delta\":{\"content\":\"x\"}}],\"usage\":{\"prompt_tokens\":700,\"completion_tokens\":300}}";
    private long accountId;

    @BeforeEach
    void anAccountAndPrices() {
        accountId = gw.account("a", upstream, MAPS, "{\"failure_policy\":{\"retry_count\":0}}");
        JsonNode prices = gw.admin("PUT", "/prices", "{\"prices\":[{\"model\":\"upstream-sol\","
                + "\"input_micros_per_m\":1000000,\"output_micros_per_m\":2000000}]}");
        assertTrue(prices.has("prices"), prices.toString());
    }

    private JsonNode key(String policy) {
        JsonNode created = gw.admin("POST", "/keys", policy);
        assertTrue(created.has("key"), created.toString());
        return created;
    }

    private long spent(JsonNode key) {
        return gw.admin("GET", "/keys/" + key.path("id").asLong(), null).path("spent_micros").asLong();
    }

    private static long costMicros(JsonNode event) {
        return Math.round(event.path("cost").asDouble() * 1_000_000);
    }

    private void completed(String key) throws IOException {
        upstream.enqueue(Reply.sse(List.of(Bodies.chatRoleChunk(), USAGE, Bodies.chatStopChunk())));
        try (RawHttpClient client = RawHttpClient.post(gw.app.port(), key, STREAM)) {
            assertTrue(client.readToEnd().contains("[DONE]"));
        }
    }

    /** The client closes its connection once the usage frame reached it; the upstream goes on after that. */
    private void cancelledAfterUsage(String key) throws IOException {
        CountDownLatch release = new CountDownLatch(1);
        List<String> frames = new ArrayList<>(List.of(Bodies.chatRoleChunk(), USAGE));
        for (int i = 0; i < 20; i++) { // several writes after the close: the first may still be accepted
            frames.add(Bodies.chatChunk("more " + i));
        }
        upstream.enqueue(Reply.sse(frames).holdAt(2).releasedBy(release).frameDelay(Duration.ofMillis(2)));
        try (RawHttpClient client = RawHttpClient.post(gw.app.port(), key, STREAM)) {
            client.awaitLineContaining("prompt_tokens");
        }
        release.countDown();
    }

    @Test
    void aStreamCancelledOrCutAfterItsUsageCostsTheEventAndTheKeyWhatTheCompletedOneCosts() throws IOException {
        JsonNode key = key("{\"name\":\"payer\"}");
        String secret = key.path("key").asText();

        completed(secret);
        cancelledAfterUsage(secret);
        // Detour learns of the close only when a later write fails: let that event land before the next stream
        // starts, so the three events are listed in the order the cases ran
        gw.events(2);
        upstream.enqueue(Reply.sseThenCut(List.of(Bodies.chatRoleChunk(), USAGE, Bodies.chatChunk("cut here"))));
        try (RawHttpClient client = RawHttpClient.post(gw.app.port(), secret, STREAM)) {
            client.readToEnd();
        }

        List<JsonNode> events = gw.events(3);
        assertEquals(List.of("success", "cancelled", "failure"),
                events.stream().map(e -> e.path("outcome").asText()).toList());
        for (JsonNode event : events) {
            assertEquals(COST, costMicros(event), event.toString());
            assertEquals(700, event.path("usage").path("input_tokens").asInt());
            assertEquals(300, event.path("usage").path("output_tokens").asInt());
            assertFalse(event.path("usage_missing").asBoolean(), event.toString());
        }
        Gateway.await(() -> spent(key) == 3 * COST, "spend stored from the three event costs: " + spent(key));
        assertEquals(1, gw.accountState(accountId).path("transient_failure_count").asInt(),
                "only the cut counts against the account, never the cancel (P-7)");
    }

    @Test
    void aKeyThatReachedItsSpendLimitThroughCancelledStreamsIsRefusedNext() throws IOException {
        JsonNode key = key("{\"name\":\"budget\",\"spend_limit\":0.002}"); // 2,000 micros: two streams reach it
        String secret = key.path("key").asText();

        cancelledAfterUsage(secret);
        gw.events(1);
        cancelledAfterUsage(secret);
        gw.events(2);
        HttpResponse<String> refused = gw.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(gw.base() + "/v1/chat/completions")).header("Authorization", "Bearer " + secret)
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(STREAM)).build());

        assertEquals(429, refused.statusCode(), refused.body());
        assertEquals("key.spend_limit", Gateway.read(refused.body()).path("error").path("code").asText());
        assertEquals(2, upstream.requestCount(), "the refused request never reached an upstream");
    }

    @Test
    void aStreamThatEndedBeforeAnyUsageIsFlaggedUsageMissing() throws IOException {
        JsonNode key = key("{\"name\":\"flags\"}");
        String secret = key.path("key").asText();
        upstream.enqueue(Reply.sseThenCut(List.of(Bodies.chatRoleChunk(), Bodies.chatChunk("no usage yet"))));
        try (RawHttpClient client = RawHttpClient.post(gw.app.port(), secret, STREAM)) {
            client.readToEnd();
        }
        completed(secret);

        List<JsonNode> events = gw.events(2);
        assertEquals("failure", events.get(0).path("outcome").asText());
        assertTrue(events.get(0).path("usage_missing").asBoolean(), events.get(0).toString());
        assertEquals(0, costMicros(events.get(0)));
        assertFalse(events.get(1).path("usage_missing").asBoolean(), events.get(1).toString());
        assertTrue(gw.event(events.get(0).path("id").asText()).path("usage_missing").asBoolean(),
                "the single event document says so too");
    }
}
