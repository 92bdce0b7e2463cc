package dev.detour.fake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fake itself, driven by the JDK's HTTP client so it does not lean on the code it tests. */
@Timeout(30) // hang guard only
class FakeUpstreamIT {
    private final HttpClient http = HttpClient.newHttpClient();
    private FakeUpstream upstream;

    @BeforeEach
    void start() {
        upstream = FakeUpstream.start();
    }

    @AfterEach
    void stop() {
        upstream.close();
    }

    @Test
    void withoutAScriptItAnswersAChatCompletionEchoingTheModel() throws Exception {
        HttpResponse<String> response = post("/v1/chat/completions", "{\"model\":\"gpt-4.1\",\"messages\":[]}");
        assertEquals(200, response.statusCode());
        assertEquals(Bodies.chatCompletion("gpt-4.1", Bodies.DEFAULT_TEXT), response.body());
        assertTrue(response.body().contains("\"usage\""));
    }

    @Test
    void queuedRepliesGoFirstInFirstOutThenTheHandlerAnswers() throws Exception {
        upstream.enqueue(Reply.text(503, "one"), Reply.json(429, "{}").header("Retry-After", "3"));
        upstream.handler(request -> Reply.text(201, "handled " + request.path()));

        assertEquals("one", post("/a", "{}").body());
        HttpResponse<String> second = post("/b", "{}");
        assertEquals(429, second.statusCode());
        assertEquals("3", second.headers().firstValue("retry-after").orElseThrow());
        assertEquals("handled /c?x=1", post("/c?x=1", "{}").body());
    }

    @Test
    void everyRequestIsRecordedWithLowerCaseHeadersAndItsBody() throws Exception {
        http.send(HttpRequest.newBuilder(URI.create(upstream.url() + "/v1/messages"))
                .header("X-Api-Key", "k-123").POST(HttpRequest.BodyPublishers.ofString("{\"a\":1}")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(1, upstream.requestCount());
        RecordedRequest recorded = upstream.lastRequest();
        assertEquals("POST", recorded.method());
        assertEquals("/v1/messages", recorded.path());
        assertEquals("k-123", recorded.headers().get("x-api-key"));
        assertEquals("{\"a\":1}", recorded.body());
    }

    @Test
    void itCountsTheRequestsItAnswersAtOnceAndTheMostItEverDid() throws Exception {
        java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
        upstream.handler(request -> Reply.stallBeforeHeaders().releasedBy(gate));
        var first = http.sendAsync(HttpRequest.newBuilder(URI.create(upstream.url() + "/a"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        var second = http.sendAsync(HttpRequest.newBuilder(URI.create(upstream.url() + "/b"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        upstream.awaitRequests(2);
        assertEquals(2, upstream.concurrency().active());
        gate.countDown();
        assertEquals(200, first.join().statusCode());
        assertEquals(200, second.join().statusCode());

        assertEquals(0, upstream.concurrency().active(), "counted out before the last byte went out");
        assertEquals(2, upstream.concurrency().highWater());
        upstream.concurrency().resetHighWater();
        assertEquals(0, upstream.concurrency().highWater());
    }

    @Test
    void sseReplySendsEachFrameThenDoneUnlessOmitted() throws Exception {
        upstream.enqueue(Reply.sse(List.of("{\"n\":1}", "{\"n\":2}")), Reply.sse(List.of("x")).withoutDone());

        HttpResponse<String> full = post("/s", "{}");
        assertEquals("text/event-stream", full.headers().firstValue("content-type").orElseThrow());
        assertEquals("data: {\"n\":1}\n\ndata: {\"n\":2}\n\ndata: [DONE]\n\n", full.body());
        assertEquals("data: x\n\n", post("/s", "{}").body());
    }

    @Test
    void standaloneScriptStreamsOnlyWhenTheRequestAsksForIt() throws Exception {
        upstream.handler(FakeUpstream.standaloneHandler(3, Duration.ZERO));

        String stream = post("/v1/chat/completions", "{\"model\":\"m\",\"stream\": true}").body();
        assertEquals(6, stream.split("\n\n").length); // role, 3 deltas, stop, [DONE]
        assertTrue(stream.endsWith("data: [DONE]\n\n"));
        assertTrue(post("/v1/chat/completions", "{\"model\":\"m\"}").body().contains("\"chat.completion\""));
    }

    @Test
    void aPacedStreamSendsEveryFrameInOrderThenDoneWithTheLastFromTheTicker() throws Exception {
        upstream.enqueue(Reply.sse(List.of("{\"n\":1}", "{\"n\":2}", "{\"n\":3}")).every(Duration.ofMillis(5)),
                Reply.sse(List.of()).every(Duration.ofMillis(5)));

        HttpResponse<String> paced = post("/s", "{}");
        assertEquals(200, paced.statusCode());
        assertEquals("text/event-stream", paced.headers().firstValue("content-type").orElseThrow());
        assertEquals("data: {\"n\":1}\n\ndata: {\"n\":2}\n\ndata: {\"n\":3}\n\ndata: [DONE]\n\n", paced.body());
        assertEquals("data: [DONE]\n\n", post("/s", "{}").body());
        assertEquals(0, upstream.concurrency().active(), "a paced stream is counted out before its last frame");
    }

    @Test
    void rawSseIsSentAsGivenWithItsStatusHeadersAndLatency() throws Exception {
        upstream.enqueue(Reply.rawSse(List.of("data: a\n\n", "event: x\ndata: b\n\n")).withStatus(203)
                .header("X-Relay", "slow").latency(Duration.ofMillis(5)));

        HttpResponse<String> raw = post("/s", "{}");
        assertEquals(203, raw.statusCode());
        assertEquals("slow", raw.headers().firstValue("x-relay").orElseThrow());
        assertEquals("data: a\n\nevent: x\ndata: b\n\n", raw.body());
    }

    @Test
    void aFakeThatKeepsNoRequestsStillAnswersThem() throws Exception {
        upstream.keepRequests(false).handler(request -> Reply.text(200, "seen " + request.body()));

        assertEquals("seen {\"a\":1}", post("/a", "{\"a\":1}").body());
        assertEquals(0, upstream.requestCount());
    }

    @Test
    void closeReleasesARequestStalledBeforeHeaders() throws Exception {
        upstream.enqueue(Reply.stallBeforeHeaders());
        var pending = http.sendAsync(HttpRequest.newBuilder(URI.create(upstream.url() + "/stall"))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        upstream.awaitRequests(1);

        upstream.close();

        assertTrue(pending.handle((response, failure) -> failure != null).get(), "the stalled exchange ended in a cut");
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(upstream.url() + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
