package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.Bodies;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.RawHttpClient;
import dev.detour.testkit.SocketUpstream;
import dev.detour.fake.Reply;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** P-6, P-7: streaming passthrough, failover before the first chunk, truncation and cancel after it. */
class StreamingIT {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    private static final String A = "{\"priority\":0,\"failure_policy\":{\"retry_count\":0,\"cooldown_enabled\":true}}";
    private static final String B = "{\"priority\":1}";
    private static final String STREAM = "{\"model\":\"gpt-5.6-sol\",\"stream\":true,\"messages\":[]}";
    private Gateway gw;
    private FakeUpstream a;
    private FakeUpstream b;
    private long idA;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        a = FakeUpstream.start();
        b = FakeUpstream.start();
        idA = gw.account("a", a, MAPS, A);
        gw.account("b", b, MAPS, B);
        b.handler(r -> Reply.sse(Bodies.chatStream("from", " b")));
    }

    @AfterEach
    void stop() {
        gw.close();
        a.close();
        b.close();
    }

    @Test
    void aHealthyStreamIsRelayedFrameByFrameAndSettlesUsage() {
        a.enqueue(Reply.sse(Bodies.chatStream("hello", " world")));
        HttpResponse<String> response = gw.post("/v1/chat/completions", STREAM);
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("content-type").orElse("").startsWith("text/event-stream"));
        assertTrue(response.body().contains("hello") && response.body().contains("[DONE]"));
        assertEquals(0, b.requestCount());
        JsonNode event = gw.events(1).get(0);
        assertEquals("success", event.path("outcome").asText());
        assertTrue(event.path("stream").asBoolean());
        assertTrue(event.path("ttft_ms").isInt(), "TTFT recorded for a stream");
    }

    /**
     * On the wire: frames the upstream sent in one write reach the client in one chunk (one write), and a frame
     * with nothing behind it is passed on at once: the upstream sends the next only after the client has it.
     */
    @Test
    void framesThatArriveTogetherLeaveInOneChunkAndNoneWaitsForTheNext() throws Exception {
        List<String> frames = Bodies.chatStream("two", "three");
        try (SocketUpstream raw = SocketUpstream.start()) {
            gw.account("raw", raw.url(), MAPS, "{\"priority\":-1}");
            raw.send(SocketUpstream.SSE_HEAD + SocketUpstream.chunk("data: " + frames.get(0) + "\n\n"));
            try (RawHttpClient client = RawHttpClient.postKeptAlive(gw.app.port(), gw.key(), STREAM)) {
                client.awaitFirstFrameIfStreaming();
                raw.send(SocketUpstream.chunk("data: " + frames.get(1) + "\n\n")
                        + SocketUpstream.chunk("data: " + frames.get(2) + "\n\n"));
                client.awaitLineContaining("\"three\"");
                raw.send(SocketUpstream.chunk("data: " + frames.get(3) + "\n\n"));
                client.awaitLineContaining("\"stop\"");
                raw.send(SocketUpstream.chunk("data: [DONE]\n\n") + SocketUpstream.LAST_CHUNK);

                client.awaitLineContaining("data: [DONE]");
                String received = client.received();
                assertTrue(received.contains("data: " + frames.get(1) + "\n\ndata: " + frames.get(2) + "\n"),
                        "two and three in one chunk: " + received);
                assertTrue(received.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked"), received);
            }
        }
        assertEquals(0, a.requestCount() + b.requestCount());
    }

    @Test
    void aConnectionThatDiesBeforeTheFirstChunkFailsOver() {
        a.enqueue(Reply.closeMidBody(""));
        assertFailsOverToB();
    }

    @Test
    void twoHundredThenCloseWithNoBodyFailsOver() {
        a.enqueue(Reply.emptyBodyClose().header("content-type", "text/event-stream"));
        assertFailsOverToB();
    }

    @Test
    void aFirstFrameThatIsAFailureEnvelopeFailsOver() {
        a.enqueue(Reply.sse(List.of("{\"error\":{\"message\":\"upstream overloaded\",\"code\":\"server_error\"}}")));
        assertFailsOverToB();
        JsonNode models = gw.accountState(idA).path("models");
        assertEquals("semantic_response_transient", models.get(0).path("last_failure_kind").asText());
    }

    private void assertFailsOverToB() {
        HttpResponse<String> response = gw.post("/v1/chat/completions", STREAM);
        assertEquals(200, response.statusCode());
        assertTrue(response.body().contains("from") && response.body().contains("[DONE]"), response.body());
        assertEquals(1, a.requestCount());
        assertEquals(1, b.requestCount());
        JsonNode event = gw.events(1).get(0);
        assertEquals("success", event.path("outcome").asText());
        assertEquals("switched_after_failure", event.path("reason_code").asText());
        assertEquals(1, gw.accountState(idA).path("transient_failure_count").asInt());
    }

    @Test
    void aStreamCutAfterTheFirstChunkKeepsThePartialStreamAbortsItAndRecordsTruncation() {
        a.enqueue(Reply.sseThenCut(List.of(Bodies.chatRoleChunk(), Bodies.chatChunk("partial"))));
        dev.detour.testkit.Received response = gw.postReceiving("/v1/chat/completions", STREAM);
        StreamBreakIT.Read read = StreamBreakIT.read(response);
        assertEquals(200, response.statusCode());
        assertTrue(read.text().contains("partial"));
        assertFalse(read.text().contains("[DONE]"));
        assertTrue(read.failed(), "F-4': the body is aborted, so the client sees the break (no clean end)");
        assertEquals(0, b.requestCount(), "bytes already with the client cannot be recalled");
        JsonNode event = gw.events(1).get(0);
        assertEquals("failure", event.path("outcome").asText());
        assertEquals("stream.truncated", event.path("error_code").asText());
        JsonNode row = gw.accountState(idA).path("models").get(0);
        assertEquals("semantic_response_transient", row.path("last_failure_kind").asText());
        assertTrue(row.path("last_failure_message").asText().startsWith("stream disconnected before completion"));
    }

    @Test
    void aClientThatDisconnectsMidStreamIsNotChargedAndUsageIsStillSettled() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        String usageChunk = "{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\"x\"}}],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":3}}";
        List<String> frames = new ArrayList<>(List.of(Bodies.chatRoleChunk(), usageChunk));
        for (int i = 0; i < 20; i++) { // several writes after the close: the first may still be accepted
            frames.add(Bodies.chatChunk("more " + i));
        }
        a.enqueue(Reply.sse(frames).holdAt(2).releasedBy(release).frameDelay(Duration.ofMillis(2)));
        // a plain socket, so the cancel is a closed connection at once (an HttpClient closes it later)
        try (RawHttpClient client = RawHttpClient.post(gw.app.port(), gw.key(), STREAM)) {
            client.awaitLineContaining("prompt_tokens");
        }
        release.countDown();
        List<JsonNode> events = gw.events(1);
        JsonNode event = events.get(0);
        assertEquals("cancelled", event.path("outcome").asText());
        assertEquals(7, event.path("usage").path("input_tokens").asInt());
        assertEquals(3, event.path("usage").path("output_tokens").asInt());
        Gateway.await(() -> gw.app.leases().inFlight(idA) == 0, "lease released after cancel");
        JsonNode state = gw.accountState(idA);
        assertEquals(0, state.path("transient_failure_count").asInt(), "a client cancel never counts");
        assertEquals(0, state.path("models").size());
    }
}
