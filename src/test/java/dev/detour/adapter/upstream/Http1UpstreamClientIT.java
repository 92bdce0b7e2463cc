package dev.detour.adapter.upstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.failure.TransportErrorType;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.wire.HeaderPolicy;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.port.UpstreamResponse;
import dev.detour.gateway.port.UpstreamTransportException;
import dev.detour.fake.Bodies;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import dev.detour.testkit.SocketUpstream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The real pooled client against a real scripted upstream on loopback. */
@Timeout(60) // a hang guard only: no assertion here depends on timing
class Http1UpstreamClientIT {
    private static final String KEY = "sk-test-secret-0123456789abcd";

    private FakeUpstream upstream;
    private Http1UpstreamClient client;

    @BeforeEach
    void start() {
        upstream = FakeUpstream.start();
        client = new Http1UpstreamClient(Duration.ofSeconds(5), Duration.ofSeconds(30));
    }

    @AfterEach
    void stop() {
        client.close();
        upstream.close();
    }

    @Test
    void jsonReplyIsReadFullyWithItsHeadersIncludingRetryAfter() throws Exception {
        String error = Bodies.openAiError(429, "Rate limit reached", "rate_limit_exceeded");
        upstream.enqueue(Reply.json(429, error).header("Retry-After", "7"));

        try (UpstreamResponse response = client.send(chat("{\"model\":\"gpt-4o\"}"))) {
            assertEquals(429, response.status());
            assertEquals("7", response.header("retry-after"));
            assertEquals("application/json", response.header("Content-Type"));
            assertEquals(error, readAll(response.body()));
        }
        assertEquals("POST", upstream.lastRequest().method());
        assertEquals("/v1/chat/completions", upstream.lastRequest().path());
        assertEquals("{\"model\":\"gpt-4o\"}", upstream.lastRequest().body());
        assertEquals("Bearer " + KEY, upstream.lastRequest().header("authorization"));
    }

    /**
     * N-7: a connection's buffers are 8 KiB ({@code ReadBuffer.SIZE}); a request body, an answer and a
     * header line longer than that still pass whole, on a reused connection as on a new one.
     */
    @Test
    void bodiesAndHeaderLinesLongerThanAConnectionsBuffersPassWhole() throws Exception {
        assertEquals(8 * 1024, ReadBuffer.SIZE);
        String header = "v".repeat(7_000);
        for (int round = 0; round < 2; round++) {
            String asked = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\""
                    + "q".repeat(100_000 + round) + "\"}]}";
            String answer = "{\"choices\":[{\"message\":{\"content\":\"" + "a".repeat(150_000 + round) + "\"}}]}";
            upstream.enqueue(Reply.json(200, answer).header("x-long", header));
            try (UpstreamResponse response = client.send(chat(asked))) {
                assertEquals(200, response.status());
                assertEquals(header, response.header("x-long"));
                assertEquals(answer, readAll(response.body()));
            }
            assertEquals(asked, upstream.lastRequest().body());
        }
    }

    @Test
    void hopByHopHeadersAreNeitherSentNorReturned() throws Exception {
        upstream.enqueue(Reply.chatCompletion().header("Keep-Alive", "timeout=5").header("Upgrade", "h2c"));
        List<Header> headers = List.of(new Header("Content-Type", "application/json"),
                new Header("Connection", "keep-alive"), new Header("TE", "trailers"),
                new Header("Proxy-Authorization", "Basic abc"), new Header("Content-Length", "999"),
                new Header("Host", "client.example"));

        try (UpstreamResponse response = client.send(new UpstreamRequest("POST", upstream.url() + "/v1/x",
                headers, "{}".getBytes(StandardCharsets.UTF_8)))) {
            readAll(response.body());
            assertNull(response.header("keep-alive"));
            assertNull(response.header("upgrade"));
            assertTrue(response.headers().stream().noneMatch(h -> HeaderPolicy.isHopByHop(h.name())));
        }
        var sent = upstream.lastRequest();
        assertNull(sent.header("te"));
        assertNull(sent.header("proxy-authorization"));
        assertEquals("2", sent.header("content-length"));
        assertEquals("127.0.0.1:" + upstream.port(), sent.header("host"));
    }

    /** The client's own User-Agent goes upstream (P-2); without one, Detour names itself rather than sending none. */
    @Test
    void aRequestWithoutAUserAgentNamesDetourAndOneWithItsOwnKeepsIt() throws Exception {
        upstream.enqueue(Reply.chatCompletion());
        upstream.enqueue(Reply.chatCompletion());
        try (UpstreamResponse response = client.send(chat("{}"))) {
            readAll(response.body());
        }
        assertEquals("Detour", upstream.lastRequest().header("user-agent"));

        try (UpstreamResponse response = client.send(new UpstreamRequest("POST", upstream.url() + "/v1/x",
                List.of(new Header("User-Agent", "claude-cli/2.0"), new Header("Content-Type", "application/json")),
                "{}".getBytes(StandardCharsets.UTF_8)))) {
            readAll(response.body());
        }
        assertEquals("claude-cli/2.0", upstream.lastRequest().header("user-agent"));
    }

    /** A header value cannot start a header of its own: line breaks in it go out as spaces. */
    @Test
    void aLineBreakInAHeaderValueGoesOutAsASpace() throws Exception {
        upstream.enqueue(Reply.chatCompletion());
        try (UpstreamResponse response = client.send(new UpstreamRequest("POST", upstream.url() + "/v1/x",
                List.of(new Header("x-app", "cli\r\nx-injected: yes")), "{}".getBytes(StandardCharsets.UTF_8)))) {
            readAll(response.body());
        }
        assertEquals("cli  x-injected: yes", upstream.lastRequest().header("x-app"));
        assertNull(upstream.lastRequest().header("x-injected"));
    }

    /**
     * An upstream that writes bytes past its answer's end (a second answer nobody asked for) leaves the connection
     * out of step: it is not reused, and the next request is answered on a fresh one.
     */
    @Test
    void aConnectionWithBytesPastItsAnswerIsNotReused() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            ExecutorService serving = Executors.newSingleThreadExecutor();
            serving.submit(() -> {
                for (int i = 0; i < 2; i++) {
                    try (var socket = server.accept()) {
                        readRequestHead(socket.getInputStream());
                        String answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}";
                        socket.getOutputStream().write((answer + answer).getBytes(StandardCharsets.US_ASCII));
                        socket.getOutputStream().flush();
                        socket.getInputStream().read(); // held open until the client closes it
                    }
                }
                return null;
            });
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/v1/models";
            for (int i = 0; i < 2; i++) {
                try (UpstreamResponse response = client.send(get(url))) {
                    readAll(response.body());
                    assertEquals(200, response.status());
                }
            }
            serving.shutdown();
            assertTrue(serving.awaitTermination(30, TimeUnit.SECONDS), "two connections accepted and closed");
        }
    }

    @Test
    void sseFramesArriveOneByOneBeforeTheUpstreamSendsTheNext() throws Exception {
        CountDownLatch secondFrameAllowed = new CountDownLatch(1);
        upstream.enqueue(Reply.stallAfterFirstFrame(List.of("first", "second")).releasedBy(secondFrameAllowed));

        try (UpstreamResponse response = client.send(chat("{\"stream\":true}"))) {
            assertEquals("text/event-stream", response.header("content-type"));
            // The upstream holds the second frame until we have read the first: a buffering
            // client would block here until the hang guard fires.
            assertEquals("data: first\n\n", readFrame(response.body()));
            secondFrameAllowed.countDown();
            assertEquals("data: second\n\n", readFrame(response.body()));
            assertEquals("data: [DONE]\n\n", readFrame(response.body()));
            assertEquals(-1, response.body().read());
        }
    }

    /**
     * Under load an upstream's frames (each its own chunk) arrive several to a socket read: the body says the
     * next is already here, so a stream relay writes them together; and says nothing where the next read would
     * wait for the upstream (a relay flushes there). The upstream writes each piece in one socket write.
     */
    @Test
    void aChunkThatCameWithThePreviousOneIsReportedReadyAndOneStillToComeIsNot() throws Exception {
        try (SocketUpstream raw = SocketUpstream.start()) {
            raw.send(SocketUpstream.SSE_HEAD);
            try (UpstreamResponse response = client.send(get(raw.url() + "/v1/chat/completions"))) {
                InputStream body = response.body();
                raw.send(SocketUpstream.chunk("data: one\n\n"));
                assertEquals("data: one\n\n", readChunk(body));
                assertEquals(0, body.available(), "nothing after one yet");

                raw.send(SocketUpstream.chunk("data: two\n\n") + SocketUpstream.chunk("data: three\n\n") + "e");
                assertEquals("data: two\n\n", readChunk(body));
                assertTrue(body.available() > 0, "three came in the same write");
                assertEquals("data: three\n\n", readChunk(body));
                assertEquals(0, body.available(), "the next chunk's size line is cut");

                raw.send("\r\ndata: [DONE]\n\n\r\n" + SocketUpstream.LAST_CHUNK); // the rest of a 0xe chunk
                assertEquals("data: [DONE]\n\n", readChunk(body));
                assertEquals(0, body.available(), "the last chunk is next");
                assertEquals(-1, body.read());
            }
        }
    }

    /** One read of a body that sends each frame as one chunk: exactly that frame. */
    private static String readChunk(InputStream body) throws IOException {
        byte[] into = new byte[256];
        int n = body.read(into);
        return new String(into, 0, n, StandardCharsets.UTF_8);
    }

    @Test
    void upstreamSilentBeforeHeadersFailsWithReadTimeoutNamingTheCeiling() {
        upstream.enqueue(Reply.stallBeforeHeaders());
        try (var impatient = new Http1UpstreamClient(Duration.ofSeconds(5), Duration.ofMillis(300))) {
            var failure = assertThrows(UpstreamTransportException.class, () -> impatient.send(chat("{}")));
            assertEquals(TransportErrorType.READ_TIMEOUT, failure.error().type());
            assertEquals("read timeout: no data from upstream for 300 ms (read timeout 300 ms)",
                    failure.error().message());
        }
    }

    @Test
    void upstreamSilentAfterTheFirstFrameFailsTheBodyReadWithReadTimeout() throws Exception {
        upstream.enqueue(Reply.sse(List.of("warm-up")), Reply.stallAfterFirstFrame(List.of("first", "never")));
        try (var impatient = new Http1UpstreamClient(Duration.ofSeconds(5), Duration.ofSeconds(1))) {
            // A warm pooled connection and a warm fake, so the headers never come near the ceiling.
            try (UpstreamResponse warmUp = impatient.send(chat("{}"))) {
                readAll(warmUp.body());
            }
            try (UpstreamResponse response = impatient.send(chat("{}"))) {
                assertEquals("data: first\n\n", readFrame(response.body()));
                var failure = assertThrows(UpstreamTransportException.class, () -> readAll(response.body()));
                assertEquals(TransportErrorType.READ_TIMEOUT, failure.error().type());
                assertEquals("read timeout: no data from upstream for 1 s (read timeout 1 s)", failure.getMessage());
            }
        }
    }

    @Test
    void portWithNothingListeningIsConnectRefused() throws Exception {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0)) {
            closedPort = probe.getLocalPort();
        }
        var failure = assertThrows(UpstreamTransportException.class,
                () -> client.send(get("http://127.0.0.1:" + closedPort + "/v1/models")));
        assertEquals(TransportErrorType.CONNECT_REFUSED, failure.error().type());
        assertTrue(failure.error().type().unreachable());
    }

    @Test
    void hostThatNeverResolvesIsUnknownHost() {
        var failure = assertThrows(UpstreamTransportException.class,
                () -> client.send(get("http://nonexistent.invalid/v1/models?key=" + KEY)));
        assertEquals(TransportErrorType.UNKNOWN_HOST, failure.error().type());
        assertTrue(!failure.getMessage().contains(KEY), failure.getMessage());
    }

    @Test
    void connectionCutMidBodyIsClosedEarlyOrReset() throws Exception {
        upstream.enqueue(Reply.closeMidBody("{\"id\":\"chatcmpl-1\",\"choices\":[{\"mess"));
        try (UpstreamResponse response = client.send(chat("{}"))) {
            assertEquals(200, response.status());
            var failure = assertThrows(UpstreamTransportException.class, () -> readAll(response.body()));
            assertTrue(Set.of(TransportErrorType.CLOSED_EARLY, TransportErrorType.CONNECTION_RESET)
                    .contains(failure.error().type()), failure.getMessage());
        }
    }

    /** Documented behaviour: headers then a cut surfaces as CLOSED_EARLY on the first body read. */
    @Test
    void okThenCloseWithNoBodyIsClosedEarlyOnTheFirstRead() throws Exception {
        upstream.enqueue(Reply.emptyBodyClose());
        try (UpstreamResponse response = client.send(chat("{}"))) {
            assertEquals(200, response.status());
            var failure = assertThrows(UpstreamTransportException.class, () -> readAll(response.body()));
            assertEquals(TransportErrorType.CLOSED_EARLY, failure.error().type(), failure.getMessage());
        }
    }

    @Test
    void sseCutWithoutTerminalMarkerDeliversTheFramesThenClosedEarly() throws Exception {
        upstream.enqueue(Reply.sseThenCut(List.of("a", "b")));
        try (UpstreamResponse response = client.send(chat("{\"stream\":true}"))) {
            assertEquals("data: a\n\n", readFrame(response.body()));
            assertEquals("data: b\n\n", readFrame(response.body()));
            var failure = assertThrows(UpstreamTransportException.class, () -> response.body().read());
            assertEquals(TransportErrorType.CLOSED_EARLY, failure.error().type(), failure.getMessage());
        }
    }

    @Test
    void redirectIsReturnedAsIsNotFollowed() throws Exception {
        upstream.enqueue(Reply.text(302, "moved").header("Location", upstream.url() + "/elsewhere"));
        try (UpstreamResponse response = client.send(get(upstream.url() + "/v1/models"))) {
            assertEquals(302, response.status());
            assertEquals(upstream.url() + "/elsewhere", response.header("location"));
            assertEquals("moved", readAll(response.body()));
        }
        assertEquals(1, upstream.requestCount());
    }

    @Test
    void gzipBodyIsPassedThroughCompressed() throws Exception {
        String json = Bodies.chatCompletion();
        upstream.enqueue(Reply.json(200, json).gzip());
        try (UpstreamResponse response = client.send(chat("{}"))) {
            assertEquals("gzip", response.header("content-encoding"));
            byte[] relayed = response.body().readAllBytes();
            assertArrayEquals(json.getBytes(StandardCharsets.UTF_8), new GZIPInputStream(
                    new java.io.ByteArrayInputStream(relayed)).readAllBytes());
        }
        assertNull(upstream.lastRequest().header("accept-encoding"));
    }

    @Test
    void fullyReadResponsesReuseOneConnectionAndAnUnreadOneIsDropped() throws Exception {
        for (int i = 0; i < 3; i++) {
            try (UpstreamResponse response = client.send(chat("{}"))) {
                readAll(response.body());
            }
        }
        assertEquals(1, upstream.connectionsOpened());

        upstream.enqueue(Reply.sse(List.of("x", "y")));
        client.send(chat("{}")).close(); // body not read: the connection must not go back to the pool
        try (UpstreamResponse response = client.send(chat("{}"))) {
            assertEquals(Bodies.chatCompletion(), readAll(response.body()));
        }
        assertEquals(2, upstream.connectionsOpened());
    }

    /**
     * An upstream that closes an idle keep-alive connection (its keep-alive timeout) without saying so:
     * the next request must go out on a fresh connection, not fail on the dead one. The pool's check
     * before reuse finds it dead; here it runs on every reuse, not only after 3 s idle.
     */
    @Test
    void aConnectionTheUpstreamClosedWhileIdleIsNotReused() throws Exception {
        String answer = "{\"ok\":true}";
        try (ServerSocket server = new ServerSocket(0);
                var checkedEveryTime = new Http1UpstreamClient(Duration.ofSeconds(5), Duration.ofSeconds(30),
                        10, 10, Duration.ZERO, System::nanoTime, false)) {
            CountDownLatch firstClosed = new CountDownLatch(1);
            ExecutorService serving = answerOnceAndClose(server, 2, answer, firstClosed);
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/v1/models";
            for (int i = 0; i < 2; i++) {
                try (UpstreamResponse response = checkedEveryTime.send(get(url))) {
                    assertEquals(200, response.status());
                    assertEquals(answer, readAll(response.body()));
                }
                firstClosed.await(); // the pooled connection is now dead while idle
            }
            serving.shutdownNow();
        }
    }

    /**
     * The background check finds the connection the upstream closed while it sat idle (4 s: past the
     * unchecked 3 s, inside the watched 5 s) and drops it, so the next request goes out on a fresh
     * connection without waiting for HttpClient's 1 ms check at lease time.
     */
    @Test
    void theBackgroundCheckDropsAnIdleConnectionTheUpstreamClosed() throws Exception {
        String answer = "{\"ok\":true}";
        AtomicLong now = new AtomicLong();
        try (ServerSocket server = new ServerSocket(0);
                var watched = watchedClient(now)) {
            CountDownLatch firstClosed = new CountDownLatch(1);
            ExecutorService serving = answerOnceAndClose(server, 2, answer, firstClosed);
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/v1/models";
            try (UpstreamResponse response = watched.send(get(url))) {
                assertEquals(answer, readAll(response.body()));
            }
            firstClosed.await(); // the pooled connection is now dead while idle
            now.addAndGet(Duration.ofSeconds(4).toNanos());
            watched.checkIdleConnections();
            try (UpstreamResponse response = watched.send(get(url))) {
                assertEquals(200, response.status());
                assertEquals(answer, readAll(response.body()));
            }
            assertEquals(0, watched.leaseTimeChecks());
            serving.shutdownNow();
        }
    }

    /**
     * A live idle connection: reused unchecked under 3 s; after that reused on the strength of a background
     * check younger than 500 ms, else checked at lease time; past the watched window (the evictor's 50 s)
     * the sweep no longer checks it, so the lease does.
     */
    @Test
    void aLeaseChecksTheConnectionOnlyWhenNoRuleVouchesForIt() throws Exception {
        AtomicLong now = new AtomicLong();
        try (var watched = watchedClient(now)) {
            String url = upstream.url() + "/v1/models";
            List<Long> checks = new ArrayList<>();
            record Lease(Duration idle, boolean sweptFirst) {
            }
            for (Lease lease : List.of(new Lease(Duration.ZERO, false), new Lease(Duration.ofMillis(2900), false),
                    new Lease(Duration.ofSeconds(4), true), new Lease(Duration.ofSeconds(4), false),
                    new Lease(Duration.ofSeconds(30), true), new Lease(Duration.ofSeconds(6), false),
                    new Lease(Http1UpstreamClient.WATCHED_REUSE.plusSeconds(1), true))) {
                checks.add(leaseChecksAfter(watched, now, lease.idle(), lease.sweptFirst(), get(url)));
            }
            assertEquals(List.of(0L, 0L, 0L, 1L, 1L, 2L, 3L), checks);
            assertEquals(1, upstream.connectionsOpened()); // every check found it alive: one connection throughout
        }
    }

    /**
     * The upstream closes the idle connection just after a background check found it alive (its keep-alive
     * timeout fell inside the check's trust): the lease reuses it unchecked, the request meets the closed
     * connection, and goes out once more on a fresh one. Nothing was answered, so nothing failed.
     */
    @Test
    void aRequestThatMeetsAConnectionClosedSinceItsCheckIsSentAgainOnAFreshOne() throws Exception {
        String answer = "{\"ok\":true}";
        byte[] reply = jsonReply(answer);
        AtomicLong now = new AtomicLong();
        try (ServerSocket server = new ServerSocket(0);
                var watched = watchedClient(now)) {
            ExecutorService serving = Executors.newSingleThreadExecutor();
            CountDownLatch checked = new CountDownLatch(1);
            CountDownLatch firstClosed = new CountDownLatch(1);
            List<Integer> requestsPerConnection = new CopyOnWriteArrayList<>();
            serving.submit(() -> {
                try (var first = server.accept()) {
                    readRequestHead(first.getInputStream());
                    requestsPerConnection.add(1); // counted before answering: the client asserts once answered
                    first.getOutputStream().write(reply);
                    checked.await(); // alive when the sweep looked, closed right after
                }
                firstClosed.countDown();
                try (var second = server.accept()) {
                    readRequestHead(second.getInputStream());
                    requestsPerConnection.add(1);
                    second.getOutputStream().write(reply);
                    second.getInputStream().read();
                }
                return null;
            });
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/v1/models";
            try (UpstreamResponse response = watched.send(get(url))) {
                assertEquals(answer, readAll(response.body()));
            }
            now.addAndGet(Duration.ofSeconds(10).toNanos());
            watched.checkIdleConnections();
            checked.countDown();
            firstClosed.await();
            now.addAndGet(Duration.ofMillis(100).toNanos());
            try (UpstreamResponse response = watched.send(get(url))) {
                assertEquals(200, response.status());
                assertEquals(answer, readAll(response.body()));
            }
            assertEquals(0, watched.leaseTimeChecks());
            assertEquals(List.of(1, 1), requestsPerConnection); // each connection answered exactly one request
            serving.shutdownNow();
        }
    }

    /**
     * A connection checked at lease time that then closes without answering is the upstream's failure: the
     * request is not sent again (the check vouched for the connection, so the upstream saw the request).
     */
    @Test
    void aCheckedConnectionThatClosesWithoutAnsweringFailsWithoutASecondSend() throws Exception {
        byte[] reply = jsonReply("{\"ok\":true}");
        AtomicLong now = new AtomicLong();
        try (ServerSocket server = new ServerSocket(0);
                var watched = watchedClient(now)) {
            ExecutorService serving = Executors.newSingleThreadExecutor();
            serving.submit(() -> {
                try (var only = server.accept()) {
                    readRequestHead(only.getInputStream());
                    only.getOutputStream().write(reply);
                    readRequestHead(only.getInputStream()); // the second request arrives, and is never answered
                }
                return null;
            });
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/v1/models";
            try (UpstreamResponse response = watched.send(get(url))) {
                readAll(response.body());
            }
            now.addAndGet(Duration.ofSeconds(10).toNanos()); // no background check: the lease checks it
            UpstreamTransportException e = assertThrows(UpstreamTransportException.class, () -> watched.send(get(url)));
            assertEquals(TransportErrorType.CLOSED_EARLY, e.error().type());
            assertEquals(1, watched.leaseTimeChecks());
            assertNoFurtherConnection(server);
            serving.shutdownNow();
        }
    }

    /** A fresh connection that closes without answering: one send, one failure. */
    @Test
    void aFreshConnectionThatClosesWithoutAnsweringFailsWithoutASecondSend() throws Exception {
        try (ServerSocket server = new ServerSocket(0);
                var watched = new Http1UpstreamClient(Duration.ofSeconds(5), Duration.ofSeconds(30))) {
            ExecutorService serving = Executors.newSingleThreadExecutor();
            serving.submit(() -> {
                try (var only = server.accept()) {
                    readRequestHead(only.getInputStream());
                }
                return null;
            });
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/v1/models";
            UpstreamTransportException e = assertThrows(UpstreamTransportException.class, () -> watched.send(get(url)));
            assertEquals(TransportErrorType.CLOSED_EARLY, e.error().type());
            assertNoFurtherConnection(server);
            serving.shutdownNow();
        }
    }

    /**
     * D-6: an answer cut inside its head (status line, or headers without their blank line) is a connection
     * closed early, not a complete answer with an empty body (HttpCore alone reads the close as the head's end).
     */
    @ParameterizedTest
    @ValueSource(strings = {"HTTP/1.1 200", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n",
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-ca"})
    void anAnswerCutInsideItsHeadIsClosedEarly(String head) throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            ExecutorService serving = Executors.newSingleThreadExecutor();
            serving.submit(() -> {
                try (var only = server.accept()) {
                    readRequestHead(only.getInputStream());
                    only.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
                }
                return null;
            });
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/v1/models";
            UpstreamTransportException e = assertThrows(UpstreamTransportException.class, () -> client.send(get(url)));
            assertEquals(TransportErrorType.CLOSED_EARLY, e.error().type(), e.getMessage());
            assertTrue(e.getMessage().contains("inside the response head"), e.getMessage());
            serving.shutdownNow();
        }
    }

    /** A whole head and a body delimited by the close (no Content-Length, no chunks) is still an answer. */
    @Test
    void aWholeHeadWithABodyEndedByTheCloseIsStillAnAnswer() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            ExecutorService serving = Executors.newSingleThreadExecutor();
            serving.submit(() -> {
                try (var only = server.accept()) {
                    readRequestHead(only.getInputStream());
                    only.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"a\":1}"
                            .getBytes(StandardCharsets.US_ASCII));
                }
                return null;
            });
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/v1/models";
            try (var response = client.send(get(url))) {
                assertEquals(200, response.status());
                assertEquals("{\"a\":1}", readAll(response.body()));
            }
            serving.shutdownNow();
        }
    }

    /** A request that must never be sent twice (P-10) trusts no background check: its lease checks the connection. */
    @Test
    void aRequestThatMustNotBeSentTwiceTrustsNoBackgroundCheck() throws Exception {
        AtomicLong now = new AtomicLong();
        try (var watched = watchedClient(now)) {
            String url = upstream.url() + "/v1/models";
            List<Long> checks = new ArrayList<>();
            for (boolean replayable : new boolean[] {true, false, true}) {
                checks.add(leaseChecksAfter(watched, now, Duration.ofSeconds(10), true, get(url, replayable)));
            }
            assertEquals(List.of(0L, 1L, 1L), checks); // the first lease is a new connection: nothing to check
        }
    }

    /**
     * Reused unchecked under 3 s, a connection the upstream has closed: a request that may be sent again goes
     * out once more on a fresh connection; one that must not (P-10) fails the attempt, sent once.
     */
    @Test
    void aConnectionClosedUnderAnUncheckedLeaseIsReplacedOnlyForARequestThatMayBeSentAgain() throws Exception {
        String answer = "{\"ok\":true}";
        for (boolean replayable : new boolean[] {true, false}) {
            AtomicLong now = new AtomicLong();
            try (ServerSocket server = new ServerSocket(0);
                    var watched = watchedClient(now)) {
                CountDownLatch firstClosed = new CountDownLatch(1);
                ExecutorService serving = answerOnceAndClose(server, replayable ? 2 : 1, answer, firstClosed);
                String url = "http://127.0.0.1:" + server.getLocalPort() + "/v1/models";
                try (UpstreamResponse response = watched.send(get(url))) {
                    assertEquals(answer, readAll(response.body()));
                }
                firstClosed.await();
                now.addAndGet(Duration.ofSeconds(1).toNanos()); // inside the unchecked window
                if (replayable) {
                    try (UpstreamResponse response = watched.send(get(url, true))) {
                        assertEquals(answer, readAll(response.body()));
                    }
                } else {
                    UpstreamTransportException e = assertThrows(UpstreamTransportException.class,
                            () -> watched.send(get(url, false)));
                    assertTrue(Set.of(TransportErrorType.CLOSED_EARLY, TransportErrorType.CONNECTION_RESET)
                            .contains(e.error().type()), e.error().toString());
                }
                assertEquals(0, watched.leaseTimeChecks());
                serving.shutdownNow();
                assertTrue(serving.awaitTermination(5, TimeUnit.SECONDS));
                assertNoFurtherConnection(server);
            }
        }
    }

    /**
     * A reused connection that closes without answering only after the upstream had the request a while
     * (an upstream that worked on it, then failed) is the upstream's failure: reported, not sent again.
     */
    @Test
    void aConnectionThatClosesLongAfterTheRequestWentOutFailsWithoutASecondSend() throws Exception {
        byte[] reply = jsonReply("{\"ok\":true}");
        AtomicLong now = new AtomicLong();
        try (ServerSocket server = new ServerSocket(0); var watched = watchedClient(now)) {
            ExecutorService serving = Executors.newSingleThreadExecutor();
            serving.submit(() -> {
                try (var only = server.accept()) {
                    readRequestHead(only.getInputStream());
                    only.getOutputStream().write(reply);
                    readRequestHead(only.getInputStream());
                    now.addAndGet(Http1UpstreamClient.CLOSED_UNDER_REQUEST.plusSeconds(1).toNanos());
                } // worked on it past the window, then closed without a word
                return null;
            });
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/v1/models";
            try (UpstreamResponse response = watched.send(get(url))) {
                readAll(response.body());
            }
            now.addAndGet(Duration.ofSeconds(1).toNanos()); // reused unchecked
            UpstreamTransportException e = assertThrows(UpstreamTransportException.class, () -> watched.send(get(url)));
            assertEquals(TransportErrorType.CLOSED_EARLY, e.error().type());
            assertEquals(0, watched.leaseTimeChecks());
            assertNoFurtherConnection(server);
            serving.shutdownNow();
        }
    }

    /**
     * Lets the client's pooled connection sit idle for {@code idle} (then, if {@code sweptFirst}, runs a
     * background check and lets 100 ms pass), sends {@code request} to the fake upstream, and returns how
     * many leases so far waited for the lease-time check.
     */
    private long leaseChecksAfter(Http1UpstreamClient watched, AtomicLong now, Duration idle,
            boolean sweptFirst, UpstreamRequest request) throws Exception {
        now.addAndGet(idle.toNanos());
        if (sweptFirst) {
            watched.checkIdleConnections();
            now.addAndGet(Duration.ofMillis(100).toNanos());
        }
        upstream.enqueue(Reply.json(200, "{\"data\":[]}"));
        try (UpstreamResponse response = watched.send(request)) {
            assertEquals("{\"data\":[]}", readAll(response.body()));
        }
        return watched.leaseTimeChecks();
    }

    /** A client whose reuse rules run on {@code now}; background checks only when the test runs them. */
    private static Http1UpstreamClient watchedClient(AtomicLong now) {
        return new Http1UpstreamClient(Duration.ofSeconds(5), Duration.ofSeconds(30), 10, 10,
                Http1UpstreamClient.UNCHECKED_REUSE, now::get, false);
    }

    /** A second send would have connected before send() returned, so it would already wait in the backlog. */
    private static void assertNoFurtherConnection(ServerSocket server) throws IOException {
        server.setSoTimeout(200);
        assertThrows(SocketTimeoutException.class, server::accept);
    }

    /**
     * Once a background check has found that an address closes idle connections (here: its first
     * connection, found closed at 3.2 s idle), a connection of that address idle past the last time
     * one was seen alive is checked at lease time again, even with a fresh background check behind it.
     */
    @Test
    void anAddressSeenClosingIdleConnectionsIsCheckedAtLeaseAgain() throws Exception {
        String answer = "{\"ok\":true}";
        byte[] reply = jsonReply(answer);
        AtomicLong now = new AtomicLong();
        try (ServerSocket server = new ServerSocket(0);
                var watched = watchedClient(now)) {
            ExecutorService serving = Executors.newSingleThreadExecutor();
            CountDownLatch firstClosed = new CountDownLatch(1);
            serving.submit(() -> {
                try (var first = server.accept()) {
                    readRequestHead(first.getInputStream());
                    first.getOutputStream().write(reply);
                } // its keep-alive timeout, as it were: closed while idle
                firstClosed.countDown();
                try (var second = server.accept()) { // kept open: answers both later requests
                    for (int i = 0; i < 2; i++) {
                        readRequestHead(second.getInputStream());
                        second.getOutputStream().write(reply);
                    }
                    second.getInputStream().read();
                }
                return null;
            });
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/v1/models";
            try (UpstreamResponse response = watched.send(get(url))) {
                assertEquals(answer, readAll(response.body()));
            }
            firstClosed.await();
            now.addAndGet(Duration.ofMillis(3200).toNanos());
            watched.checkIdleConnections(); // finds it closed: the address closes idle connections
            try (UpstreamResponse response = watched.send(get(url))) {
                assertEquals(answer, readAll(response.body()));
            }
            now.addAndGet(Duration.ofSeconds(4).toNanos());
            watched.checkIdleConnections(); // alive at 4 s idle, but past what the address was seen to allow
            now.addAndGet(Duration.ofMillis(100).toNanos());
            try (UpstreamResponse response = watched.send(get(url))) {
                assertEquals(answer, readAll(response.body()));
            }
            assertEquals(1, watched.leaseTimeChecks());
            serving.shutdownNow();
        }
    }

    /**
     * A raw upstream that takes {@code connections} connections one after another, answers one request
     * on each and closes it right after, with no "Connection: close" to warn the client; each close
     * counts {@code closed} down.
     */
    private static ExecutorService answerOnceAndClose(ServerSocket server, int connections, String answer,
            CountDownLatch closed) {
        ExecutorService serving = Executors.newSingleThreadExecutor();
        serving.submit(() -> {
            for (int i = 0; i < connections; i++) {
                try (var socket = server.accept()) {
                    readRequestHead(socket.getInputStream());
                    socket.getOutputStream().write(jsonReply(answer));
                }
                closed.countDown();
            }
            return null;
        });
        return serving;
    }

    private static byte[] jsonReply(String answer) {
        return ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + answer.length()
                + "\r\n\r\n" + answer).getBytes(StandardCharsets.US_ASCII);
    }

    private static void readRequestHead(InputStream in) throws IOException {
        int matched = 0;
        for (int b = in.read(); b >= 0; b = in.read()) {
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
            if (matched == 4) {
                return;
            }
        }
    }

    @Test
    void abortDropsAStalledStreamAtOnceAndLaterReadsFail() throws Exception {
        upstream.enqueue(Reply.stallAfterFirstFrame(List.of("first", "never")));
        UpstreamResponse response = client.send(chat("{}"));
        assertEquals("data: first\n\n", readFrame(response.body()));
        response.abort();
        response.abort();
        var failure = assertThrows(UpstreamTransportException.class, () -> response.body().read());
        assertEquals(TransportErrorType.OTHER, failure.error().type());
        response.close();
    }

    @Test
    void abortFromAnotherThreadUnblocksAReaderWaitingOnAStalledStream() throws Exception {
        upstream.enqueue(Reply.stallAfterHeaders());
        UpstreamResponse response = client.send(chat("{}"));
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch reading = new CountDownLatch(1);
            Future<Integer> read = reader.submit(() -> {
                reading.countDown();
                return response.body().read();
            });
            reading.await();
            response.abort();
            var failure = assertThrows(java.util.concurrent.ExecutionException.class, read::get);
            assertTrue(failure.getCause() instanceof UpstreamTransportException, failure.toString());
        } finally {
            reader.shutdownNow();
            response.close();
        }
    }

    @Test
    void fiftyParallelRequestsToOneHostAllReachTheUpstreamAtOnce() throws Exception {
        int parallel = 50;
        CountDownLatch release = new CountDownLatch(1);
        upstream.handler(request -> Reply.stallBeforeHeaders().releasedBy(release));
        ExecutorService callers = Executors.newFixedThreadPool(parallel);
        try {
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < parallel; i++) {
                statuses.add(callers.submit(() -> {
                    try (UpstreamResponse response = client.send(chat("{}"))) {
                        readAll(response.body());
                        return response.status();
                    }
                }));
            }
            // All 50 are held by the upstream at the same time: none waits in the pool queue.
            upstream.awaitRequests(parallel);
            assertEquals(parallel, upstream.requestCount());
            release.countDown();
            for (Future<Integer> status : statuses) {
                assertEquals(200, status.get());
            }
        } finally {
            callers.shutdownNow();
        }
    }

    private UpstreamRequest chat(String json) {
        return new UpstreamRequest("POST", upstream.url() + "/v1/chat/completions",
                List.of(new Header("Content-Type", "application/json"), new Header("Authorization", "Bearer " + KEY)),
                json.getBytes(StandardCharsets.UTF_8));
    }

    private static UpstreamRequest get(String url) {
        return get(url, true);
    }

    /** @param replayable false: a P-10 side-effecting request, never sent twice */
    private static UpstreamRequest get(String url, boolean replayable) {
        return new UpstreamRequest("GET", url, List.of(new Header("Authorization", "Bearer " + KEY)), null, replayable);
    }

    private static String readAll(InputStream body) throws IOException {
        return new String(body.readAllBytes(), StandardCharsets.UTF_8);
    }

    /** Reads exactly one SSE event (up to and including the blank line), never further. */
    private static String readFrame(InputStream body) throws IOException {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        int previous = -1;
        int b;
        while ((b = body.read()) != -1) {
            frame.write(b);
            if (b == '\n' && previous == '\n') {
                break;
            }
            previous = b;
        }
        return frame.toString(StandardCharsets.UTF_8);
    }
}
