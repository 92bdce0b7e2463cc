package dev.detour.adapter.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.EndpointFamily;
import dev.detour.core.secret.SecretMask;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.NonBlockingClient;
import dev.detour.gateway.port.ResponseSink;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.port.UpstreamResponse;
import dev.detour.gateway.wire.StreamRelay;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.LocalhostTls;
import dev.detour.testkit.SystemProperty;
import dev.detour.testkit.SocketUpstream;
import dev.detour.testkit.TlsStreamServer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * N-7: the stream pump with the real client, the real relay loop ({@link StreamRelay}) and upstreams on real loopback
 * sockets; the client side is a sink that keeps what it is given and which thread gave it. Each stream runs on a
 * thread of its own, as a request does, while the test sends the upstream's bytes.
 */
@Timeout(60) // a hang guard only: no assertion here depends on timing
class StreamPumpIT {
    private static final String PUMP_THREAD = "detour-stream-pump";

    private final ExecutorService streams = Executors.newCachedThreadPool();
    private Http1UpstreamClient client;
    private SystemProperty pumpOn;

    @BeforeEach
    void pumpOn() {
        pumpOn = SystemProperty.set("detour.streamPump", "true"); // on, whatever the environment says
        client = client(Duration.ofSeconds(30));
    }

    /** A client whose https trusts the test certificate ({@link SocketUpstream#startTls}). */
    private static Http1UpstreamClient client(Duration readTimeout) {
        return new Http1UpstreamClient(Duration.ofSeconds(5), readTimeout, 10, 10, Http1UpstreamClient.UNCHECKED_REUSE,
                System::nanoTime, true, LocalhostTls.get().trustingClient());
    }

    @AfterEach
    void stop() {
        client.close();
        streams.shutdownNow();
        pumpOn.close();
    }

    @Test
    void framesThatArriveWhileAStreamWaitsAreRelayedByThePumpAndItsEndByItsOwnThread() throws Exception {
        try (SocketUpstream upstream = SocketUpstream.start()) {
            upstream.send(SocketUpstream.SSE_HEAD + SocketUpstream.chunk("data: zero\n\n"));
            MemorySink sink = new MemorySink();
            Future<StreamRelay.Result> relayed = relay(upstream.url(), sink);

            Gateway.await(() -> client.pumpedStreams() > 0, "the stream waits in the pump");
            upstream.send(SocketUpstream.chunk("data: one\n\n"));
            Gateway.await(() -> sink.text().contains("data: one"), "the first frame relayed");
            upstream.send(SocketUpstream.chunk("data: two\n\n") + SocketUpstream.chunk("data: three\n\n"));
            Gateway.await(() -> sink.text().contains("data: three"), "two frames that came together relayed");
            upstream.send(SocketUpstream.chunk("data: [DONE]\n\n") + SocketUpstream.LAST_CHUNK);

            StreamRelay.Result result = relayed.get(30, TimeUnit.SECONDS);
            assertFalse(result.truncated(), "the body ended whole");
            assertFalse(result.clientGone());
            assertEquals("data: zero\n\ndata: one\n\ndata: two\n\ndata: three\n\ndata: [DONE]\n\n", sink.text());
            assertTrue(sink.writers.contains(PUMP_THREAD), "frames were written by the pump: " + sink.writers);
            assertFalse(sink.blocking.contains(PUMP_THREAD), "the pump never wrote to a blocking client");
            assertEquals(0, sink.nonBlockingStarts - sink.nonBlockingStops, "every pumped stretch ended blocking again");
        }
    }

    @Test
    void aPumpedStreamsConnectionGoesBackToThePoolAtItsEnd() throws Exception {
        try (FakeUpstream upstream = FakeUpstream.start()) {
            CountDownLatch rest = new CountDownLatch(1);
            upstream.enqueue(Reply.stallAfterFirstFrame(List.of("first", "second")).releasedBy(rest),
                    Reply.sse(List.of("again")));
            MemorySink sink = new MemorySink();
            Future<StreamRelay.Result> relayed = relay(upstream.url(), sink);
            Gateway.await(() -> client.pumpedStreams() > 0 && sink.text().contains("first"), "the stream pumped");
            rest.countDown();
            assertFalse(relayed.get(30, TimeUnit.SECONDS).truncated());
            assertTrue(sink.text().endsWith("data: second\n\ndata: [DONE]\n\n"), sink.text());

            MemorySink next = new MemorySink();
            assertFalse(relay(upstream.url(), next).get(30, TimeUnit.SECONDS).truncated());
            assertEquals("data: again\n\ndata: [DONE]\n\n", next.text());
            assertEquals(1L, upstream.connectionsOpened(), "the second stream reused the first one's connection");
        }
    }

    /** Jetty's TLS (the fake upstream the bench's https legs use): pumped, and the connection reused after. */
    @Test
    void aStreamFromJettyOverHttpsIsPumpedAndItsConnectionReused() throws Exception {
        try (FakeUpstream upstream = FakeUpstream.startTls(0, LocalhostTls.get().keyStore(), LocalhostTls.password())) {
            CountDownLatch rest = new CountDownLatch(1);
            upstream.enqueue(Reply.stallAfterFirstFrame(List.of("first", "second")).releasedBy(rest),
                    Reply.sse(List.of("again")));
            MemorySink sink = new MemorySink();
            Future<StreamRelay.Result> relayed = relay(upstream.url(), sink);
            Gateway.await(() -> sink.text().contains("first") && waitsInThePump(), "the https stream pumped");
            rest.countDown();
            assertFalse(relayed.get(30, TimeUnit.SECONDS).truncated());
            assertTrue(sink.text().endsWith("data: second\n\ndata: [DONE]\n\n"), sink.text());
            assertTrue(sink.writers.contains(PUMP_THREAD), "relayed by the pump: " + sink.writers);

            MemorySink next = new MemorySink();
            assertFalse(relay(upstream.url(), next).get(30, TimeUnit.SECONDS).truncated());
            assertEquals("data: again\n\ndata: [DONE]\n\n", next.text());
            assertEquals(1L, upstream.connectionsOpened(), "the second stream reused the first one's connection");
        }
    }

    @Test
    void aBodyWithAContentLengthIsPumpedAndEndsWhole() throws Exception {
        try (SocketUpstream upstream = SocketUpstream.start()) {
            String head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 25\r\n\r\n";
            upstream.send(head + "data: one\n\n");
            MemorySink sink = new MemorySink();
            Future<StreamRelay.Result> relayed = relay(upstream.url(), sink);
            Gateway.await(() -> client.pumpedStreams() > 0, "the stream waits in the pump");
            upstream.send("data: [DONE]\n\n");
            StreamRelay.Result result = relayed.get(30, TimeUnit.SECONDS);
            assertFalse(result.truncated());
            assertEquals("data: one\n\ndata: [DONE]\n\n", sink.text());
        }
    }

    @Test
    void anUpstreamThatGoesSilentWhilePumpedIsCutByTheReadGap() throws Exception {
        try (SocketUpstream upstream = SocketUpstream.start()) {
            assertCutByTheReadGapWhilePumped(upstream);
        }
    }

    /** A 500 ms read gap, and an upstream silent after its first frame. */
    private void assertCutByTheReadGapWhilePumped(SocketUpstream upstream) throws Exception {
        client.close();
        client = client(Duration.ofMillis(500));
        upstream.send(SocketUpstream.SSE_HEAD + SocketUpstream.chunk("data: one\n\n"));
        MemorySink sink = new MemorySink();
        StreamRelay.Result result = relay(upstream.url(), sink).get(30, TimeUnit.SECONDS);
        assertTrue(client.pumpedStreams() > 0, "it waited in the pump");
        assertTrue(result.truncated(), "cut: no [DONE] came");
        assertEquals("data: one\n\n", sink.text());
    }

    @Test
    void anUpstreamCutWhilePumpedTruncatesTheStream() throws Exception {
        try (SocketUpstream upstream = SocketUpstream.start()) {
            upstream.send(SocketUpstream.SSE_HEAD + SocketUpstream.chunk("data: one\n\n"));
            MemorySink sink = new MemorySink();
            Future<StreamRelay.Result> relayed = relay(upstream.url(), sink);
            Gateway.await(() -> client.pumpedStreams() > 0, "the stream waits in the pump");
            upstream.send("1"); // a size line cut in two: the pump waits for the rest, which never comes
            upstream.close();
            StreamRelay.Result result = relayed.get(30, TimeUnit.SECONDS);
            assertTrue(result.truncated());
            assertEquals("data: one\n\n", sink.text());
        }
    }

    @Test
    void aClientThatDoesNotKeepUpGetsTheRestFromItsOwnThread() throws Exception {
        try (SocketUpstream upstream = SocketUpstream.start()) {
            upstream.send(SocketUpstream.SSE_HEAD + SocketUpstream.chunk("data: zero\n\n"));
            MemorySink sink = new MemorySink();
            sink.keepsUp = false; // every write without waiting keeps bytes back
            Future<StreamRelay.Result> relayed = relay(upstream.url(), sink);
            Gateway.await(() -> client.pumpedStreams() > 0, "the stream waits in the pump");
            upstream.send(SocketUpstream.chunk("data: one\n\n"));
            Gateway.await(() -> client.pumpedStreams() > 1, "given back after one write, then pumped again");
            upstream.send(SocketUpstream.chunk("data: [DONE]\n\n") + SocketUpstream.LAST_CHUNK);
            assertFalse(relayed.get(30, TimeUnit.SECONDS).truncated());
            assertEquals("data: zero\n\ndata: one\n\ndata: [DONE]\n\n", sink.text());
            assertEquals(0, sink.nonBlockingStarts - sink.nonBlockingStops);
        }
    }

    @Test
    void aClientThatLeavesWhilePumpedCancelsTheStream() throws Exception {
        try (SocketUpstream upstream = SocketUpstream.start()) {
            upstream.send(SocketUpstream.SSE_HEAD + SocketUpstream.chunk("data: zero\n\n"));
            MemorySink sink = new MemorySink();
            Future<StreamRelay.Result> relayed = relay(upstream.url(), sink);
            Gateway.await(() -> client.pumpedStreams() > 0, "the stream waits in the pump");
            sink.gone = true;
            upstream.send(SocketUpstream.chunk("data: one\n\n"));
            StreamRelay.Result result = relayed.get(30, TimeUnit.SECONDS);
            assertTrue(result.clientGone());
            assertEquals("data: zero\n\n", sink.text());
        }
    }

    /** TLS is read through an SSLEngine, so a pump takes an https stream's records as they come, as a plain one's. */
    @Test
    void anHttpsStreamIsPumpedAndItsConnectionReused() throws Exception {
        try (SocketUpstream upstream = SocketUpstream.startTls()) {
            upstream.send(SocketUpstream.SSE_HEAD + SocketUpstream.chunk("data: zero\n\n"));
            MemorySink sink = new MemorySink();
            Future<StreamRelay.Result> relayed = relay(upstream.url(), sink);
            Gateway.await(() -> client.pumpedStreams() > 0, "the https stream waits in the pump");
            upstream.send(SocketUpstream.chunk("data: one\n\n"));
            Gateway.await(() -> sink.text().contains("data: one"), "the first record relayed");
            upstream.send(SocketUpstream.chunk("data: two\n\n") + SocketUpstream.chunk("data: three\n\n"));
            upstream.send(SocketUpstream.chunk("data: [DONE]\n\n") + SocketUpstream.LAST_CHUNK);
            StreamRelay.Result result = relayed.get(30, TimeUnit.SECONDS);
            assertFalse(result.truncated());
            assertEquals("data: zero\n\ndata: one\n\ndata: two\n\ndata: three\n\ndata: [DONE]\n\n", sink.text());
            assertTrue(sink.writers.contains(PUMP_THREAD), "records were relayed by the pump: " + sink.writers);
            assertFalse(sink.blocking.contains(PUMP_THREAD), "the pump never wrote to a blocking client");

            upstream.nextRequest(); // the same TLS connection, or this upstream (one connection only) never answers
            upstream.send(SocketUpstream.SSE_HEAD + SocketUpstream.chunk("data: again\n\n")
                    + SocketUpstream.chunk("data: [DONE]\n\n") + SocketUpstream.LAST_CHUNK);
            MemorySink next = new MemorySink();
            assertFalse(relay(upstream.url(), next).get(30, TimeUnit.SECONDS).truncated());
            assertEquals("data: again\n\ndata: [DONE]\n\n", next.text(), "the second stream went over the pumped one's connection");
        }
    }

    /**
     * Records decrypted or read ahead wait in the TLS layer, where no socket readiness announces them: a burst of
     * many records, each larger than the read buffer, is relayed whole before anything more comes.
     */
    @Test
    void anHttpsBurstOfManyRecordsIsRelayedWholeWithoutMoreBytes() throws Exception {
        try (SocketUpstream upstream = SocketUpstream.startTls()) {
            upstream.send(SocketUpstream.SSE_HEAD + SocketUpstream.chunk("data: zero\n\n"));
            MemorySink sink = new MemorySink();
            Future<StreamRelay.Result> relayed = relay(upstream.url(), sink);
            Gateway.await(() -> client.pumpedStreams() > 0, "the https stream waits in the pump");
            StringBuilder burst = new StringBuilder();
            StringBuilder expected = new StringBuilder("data: zero\n\n");
            for (int i = 0; i < 300; i++) {
                String frame = "data: {\"n\":" + i + ",\"text\":\"" + "x".repeat(500) + "\"}\n\n";
                burst.append(SocketUpstream.chunk(frame));
                expected.append(frame);
            }
            upstream.send(burst.toString()); // ~160 KiB in one write: ten full records
            Gateway.await(() -> sink.text().contains("\"n\":299,"), "the whole burst relayed, nothing more sent");
            assertFalse(relayed.isDone(), "the stream still waits for its end");
            upstream.send(SocketUpstream.chunk("data: [DONE]\n\n") + SocketUpstream.LAST_CHUNK);
            assertFalse(relayed.get(30, TimeUnit.SECONDS).truncated());
            assertEquals(expected + "data: [DONE]\n\n", sink.text());
            assertTrue(sink.writers.contains(PUMP_THREAD), "relayed by the pump: " + sink.writers);
        }
    }

    @Test
    void anHttpsUpstreamThatGoesSilentWhilePumpedIsCutByTheReadGap() throws Exception {
        try (SocketUpstream upstream = SocketUpstream.startTls()) {
            assertCutByTheReadGapWhilePumped(upstream);
        }
    }

    /** close_notify then the socket's end, mid-body: the stream is cut short, not ended. */
    @Test
    void anHttpsUpstreamThatEndsTlsWhilePumpedTruncatesTheStream() throws Exception {
        try (SocketUpstream upstream = SocketUpstream.startTls()) {
            upstream.send(SocketUpstream.SSE_HEAD + SocketUpstream.chunk("data: one\n\n"));
            MemorySink sink = new MemorySink();
            Future<StreamRelay.Result> relayed = relay(upstream.url(), sink);
            Gateway.await(() -> client.pumpedStreams() > 0, "the https stream waits in the pump");
            upstream.close();
            StreamRelay.Result result = relayed.get(30, TimeUnit.SECONDS);
            assertTrue(result.truncated());
            assertEquals("data: one\n\n", sink.text());
        }
    }

    /**
     * TLS 1.3 key updates mid-stream, each asking to be answered (as a JDK server does at its key limit), arriving
     * while the stream waits in the pump: the pump's read decrypts through them and answers them without waiting,
     * and the upstream, having read the answers, takes the next request on the same connection.
     */
    @Test
    void keyUpdatesThatArriveWhilePumpedAreAnswered(@TempDir Path dir) throws Exception {
        try (TlsStreamServer upstream = TlsStreamServer.start(dir, 4, 100, 8 * 1024)) {
            MemorySink sink = new MemorySink();
            Future<StreamRelay.Result> relayed = relay(upstream.url(), sink);
            for (int batch = 1; batch < 4; batch++) {
                String last = "{\"n\":" + (batch * 100 - 1) + ",";
                Gateway.await(() -> sink.text().contains(last) && waitsInThePump(), "a batch relayed, then pumped");
                upstream.nextBatch(); // ~23 KiB: key updates on the way, read on the pump's thread
            }
            StreamRelay.Result result = relayed.get(30, TimeUnit.SECONDS);
            assertFalse(result.truncated());
            assertTrue(sink.text().contains("{\"n\":399,") && sink.text().endsWith("data: [DONE]\n\n"));
            assertTrue(sink.writers.contains(PUMP_THREAD), "relayed by the pump: " + sink.writers);
            assertTrue(upstream.log().contains("Produced KeyUpdate post-handshake message"), "key updates were asked");
            // answered when read, not held back until the next request (the upstream reads while it waits for one)
            Gateway.await(() -> upstream.log().contains("Consuming KeyUpdate post-handshake message"),
                    "the upstream read the client's answers before any new request");

            MemorySink next = new MemorySink();
            assertFalse(relay(upstream.url(), next).get(30, TimeUnit.SECONDS).truncated(), "the connection lives on");
            assertTrue(next.text().startsWith("data: {\"n\":0,"), next.text());
        }
    }

    /** The stream's thread is parked in the pump: the pump, not it, reads what comes next. */
    private static boolean waitsInThePump() {
        for (StackTraceElement[] stack : Thread.getAllStackTraces().values()) {
            for (StackTraceElement frame : stack) {
                if (frame.getClassName().equals(StreamPump.class.getName()) && frame.getMethodName().equals("relay")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** What the gateway does with a stream whose head came: relay it on a thread of its own (a request's). */
    private Future<StreamRelay.Result> relay(String baseUrl, MemorySink sink) {
        return streams.submit(() -> {
            UpstreamResponse response = client.send(new UpstreamRequest("POST", baseUrl + "/v1/chat/completions",
                    List.of(new Header("Content-Type", "application/json")),
                    "{\"stream\":true}".getBytes(StandardCharsets.UTF_8), true));
            sink.begin(response.status(), response.headers());
            return new StreamRelay(SecretMask.SHAPES, EndpointFamily.CHAT_COMPLETIONS).relay(response, new byte[0], sink);
        });
    }

    /** A client that keeps every byte and who wrote it; written without waiting between start and stop. */
    private static final class MemorySink implements ResponseSink, NonBlockingClient {
        final Set<String> writers = ConcurrentHashMap.newKeySet();
        final Set<String> blocking = ConcurrentHashMap.newKeySet();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        volatile boolean keepsUp = true;
        volatile boolean gone;
        private volatile boolean nonBlocking;
        private volatile boolean keptBack;
        volatile int nonBlockingStarts;
        volatile int nonBlockingStops;
        private boolean begun;

        String text() {
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }

        @Override
        public void begin(int status, List<Header> headers) {
            begun = true;
        }

        @Override
        public void write(byte[] b, int offset, int length) throws ClientGoneException {
            if (gone) {
                throw new ClientGoneException(new java.io.IOException("gone"));
            }
            pending.write(b, offset, length);
        }

        @Override
        public void flush() throws ClientGoneException {
            if (gone) {
                throw new ClientGoneException(new java.io.IOException("gone"));
            }
            String thread = Thread.currentThread().getName();
            writers.add(thread);
            if (!nonBlocking) {
                blocking.add(thread);
            } else if (!keepsUp && pending.size() > 0) {
                keptBack = true;
            }
            synchronized (bytes) {
                bytes.writeBytes(pending.toByteArray());
            }
            pending.reset();
        }

        @Override
        public void abort() {
            gone = true;
        }

        @Override
        public boolean committed() {
            return begun;
        }

        @Override
        public NonBlockingClient nonBlocking() {
            return this;
        }

        @Override
        public void start() {
            nonBlockingStarts++;
            keptBack = false;
            nonBlocking = true;
        }

        @Override
        public boolean keptUp() {
            return !keptBack;
        }

        @Override
        public void stop() {
            nonBlocking = false;
            keptBack = false;
            nonBlockingStops++;
        }
    }
}
