package dev.detour.server.front;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.ResponseSink;
import dev.detour.server.ConnectionCap;
import dev.detour.server.JettyServer;
import dev.detour.server.MinimumBodyRate;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * N-8: the front on a real socket, with Jetty behind it as in production: what it serves itself, what it hands to
 * Jetty (every byte of it, mid-connection too), and the guards it keeps (X-4 cap, stalled writes, slow bodies, D-3).
 */
@Timeout(60) // a hang guard only
class FrontServerIT {
    private Server jetty;
    private FrontServer front;
    /** What the handler saw when its write failed: the client went away. */
    private final CompletableFuture<Boolean> clientGone = new CompletableFuture<>();
    /** L-2: {@code /v1/wait} waits (as in the queue) until the test ends the wait; the gone watch's report. */
    private final java.util.concurrent.CountDownLatch waitEnds = new java.util.concurrent.CountDownLatch(1);
    private final CompletableFuture<Boolean> watchedGone = new CompletableFuture<>();
    private final CompletableFuture<Boolean> waiting = new CompletableFuture<>();
    /** {@code /v1/stream}'s thread priority once its first frame left. */
    private volatile int streamingPriority;

    /** The relay's stand-in: echoes method, path, query and body; {@code /v1/stream} streams; {@code /v1/flood} floods. */
    private final FrontHandler echo = new FrontHandler() {
        @Override
        public boolean serves(String path) {
            return path.startsWith("/v1/");
        }

        @Override
        public void serve(FrontExchange exchange) {
            ResponseSink sink = exchange.sink();
            exchange.answerHeader("x-served-by", "front");
            exchange.answerHeader("x-thread", org.eclipse.jetty.util.VirtualThreads.isVirtualThread() + " "
                    + Thread.currentThread().getPriority());
            try {
                if (exchange.draining()) {
                    exchange.discardUnreadBodyOrClose();
                    sink.begin(503, List.of(new Header("Content-Type", "text/plain")));
                    sink.writeWhole("draining".getBytes(StandardCharsets.US_ASCII));
                    return;
                }
                byte[] body;
                try {
                    body = exchange.body().readAllBytes();
                } catch (SocketTimeoutException e) {
                    exchange.discardUnreadBodyOrClose();
                    sink.begin(408, List.of());
                    sink.writeWhole("too slow".getBytes(StandardCharsets.US_ASCII));
                    return;
                }
                RequestHead head = exchange.head();
                String path = head.path();
                if (path.equals("/v1/wait")) {
                    Runnable stopWatching = sink.watchGone(() -> watchedGone.complete(true));
                    waiting.complete(true);
                    try {
                        waitEnds.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        stopWatching.run();
                    }
                }
                if (path.equals("/v1/stream")) {
                    sink.begin(200, List.of(new Header("Content-Type", "text/event-stream")));
                    for (int i = 0; i < 3; i++) {
                        byte[] frame = ("data: " + i + "\n\n").getBytes(StandardCharsets.US_ASCII);
                        sink.write(frame, 0, frame.length);
                        sink.flush();
                        streamingPriority = Thread.currentThread().getPriority();
                    }
                    return;
                }
                if (path.equals("/v1/flood")) {
                    exchange.admitted();
                    sink.begin(200, List.of());
                    byte[] lots = new byte[64 * 1024];
                    try {
                        while (true) { // until the watchdog closes the connection
                            sink.write(lots, 0, lots.length);
                            sink.flush();
                        }
                    } catch (ResponseSink.ClientGoneException e) {
                        clientGone.complete(true);
                        return;
                    }
                }
                sink.begin(200, List.of(new Header("Content-Type", "text/plain"),
                        new Header("Content-Length", "999"), new Header("Transfer-Encoding", "chunked")));
                sink.writeWhole((head.method() + " " + path + " " + head.query() + " "
                        + new String(body, StandardCharsets.US_ASCII)).getBytes(StandardCharsets.US_ASCII));
            } catch (IOException | ResponseSink.ClientGoneException e) {
                throw new IllegalStateException(e);
            }
        }
    };

    private void start(ConnectionCap cap, Duration clientTimeout) throws Exception {
        HttpServlet jettyEcho = new HttpServlet() {
            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
                byte[] body = request.getInputStream().readAllBytes();
                response.setContentType("text/plain");
                response.getOutputStream().write(("jetty " + request.getMethod() + " " + request.getRequestURI() + " "
                        + new String(body, StandardCharsets.US_ASCII)).getBytes(StandardCharsets.US_ASCII));
            }
        };
        jetty = JettyServer.newServer("127.0.0.1", 0, Map.of("/*", jettyEcho), null, null, Duration.ofSeconds(5),
                dev.detour.server.ClientGuards.timeoutsOnly(clientTimeout, 1024), true);
        jetty.start();
        front = new FrontServer(new InetSocketAddress("127.0.0.1", 0), echo, JettyServer.handOff(jetty), cap,
                new MinimumBodyRate(1024, System::nanoTime), clientTimeout, Duration.ofSeconds(300),
                Thread.MIN_PRIORITY);
        front.start(64);
    }

    @AfterEach
    void stop() throws Exception {
        if (front != null) {
            front.close();
        }
        if (jetty != null) {
            jetty.stop();
        }
    }

    @Test
    void aRelayRequestIsServedByTheFrontAndAConsoleRequestOnTheSameConnectionByJettyWithEveryByte() throws Exception {
        start(null, Duration.ofSeconds(30));
        try (Socket socket = connect()) {
            send(socket, post("/v1/chat/completions?x=1", "hello"));
            Answer first = Answer.read(socket.getInputStream());
            assertEquals(200, first.status);
            assertEquals("POST /v1/chat/completions x=1 hello", first.body);
            assertTrue(first.head.contains("x-served-by: front"), first.head);
            // the answer's own framing, whatever the header list said
            assertTrue(first.head.contains("Content-Length: 35"), first.head);
            assertFalse(first.head.contains("999") || first.head.contains("chunked"), first.head);
            send(socket, post("/console/save", "form=1"));
            Answer second = Answer.read(socket.getInputStream());
            assertEquals("jetty POST /console/save form=1", second.body);
        }
        assertEquals(1, front.servedCount());
        assertEquals(1, front.handOffCount());
    }

    /**
     * The JDK's own HttpClient offers h2c on every new plain connection: the front declines the offer by answering
     * in HTTP/1.1 (as Jetty here does) and serves the requests itself, on one kept-alive connection.
     */
    @Test
    void theJdkClientsH2cOfferIsDeclinedAndItsRequestsServedByTheFront() throws Exception {
        start(null, Duration.ofSeconds(30));
        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient(); // HTTP_2 by default
        for (String body : new String[] {"one", "two"}) {
            java.net.http.HttpResponse<String> answer = client.send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + front.port() + "/v1/chat/completions"))
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode());
            assertEquals(java.net.http.HttpClient.Version.HTTP_1_1, answer.version());
            assertEquals("POST /v1/chat/completions null " + body, answer.body());
            assertEquals("front", answer.headers().firstValue("x-served-by").orElse(null));
        }
        assertEquals(2, front.servedCount());
        assertEquals(0, front.handOffCount());
    }

    @Test
    void anUpgradeToAnotherProtocolGoesToJetty() throws Exception {
        start(null, Duration.ofSeconds(30));
        try (Socket socket = connect()) {
            send(socket, "GET /v1/chat HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                    + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
            assertEquals("jetty GET /v1/chat ", Answer.read(socket.getInputStream()).body);
        }
        assertEquals(0, front.servedCount());
        assertEquals(1, front.handOffCount());
    }

    /**
     * N-8: the first {@link FrontServer#PLATFORM_CONNECTIONS} connections at once run on platform threads at the
     * priority given (the lowest in production: nice 10 under the production flags, so the event writer keeps pace;
     * one wake-up per read keeps an agent's latency low); where the JVM has virtual threads (21+), connections beyond
     * them run on virtual ones (a crowd of held streams costs no thread stack each), else on more platform threads.
     */
    @Test
    void connectionsBeyondTheFirstFewRunOnVirtualThreadsWhereThereAreSome() throws Exception {
        start(null, Duration.ofSeconds(30));
        List<Socket> open = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < FrontServer.PLATFORM_CONNECTIONS; i++) {
                assertEquals("false " + Thread.MIN_PRIORITY, threadOf(open));
            }
            assertEquals(org.eclipse.jetty.util.VirtualThreads.areSupported() ? "true " + Thread.NORM_PRIORITY
                    : "false " + Thread.MIN_PRIORITY, threadOf(open));
        } finally {
            for (Socket socket : open) {
                socket.close();
            }
        }
    }

    /** Opens a connection (kept open, so its thread stays taken) and answers what its thread is. */
    private String threadOf(List<Socket> open) throws IOException {
        Socket socket = connect();
        open.add(socket);
        send(socket, post("/v1/a", "x"));
        return threadHeader(Answer.read(socket.getInputStream()));
    }

    private static String threadHeader(Answer answer) {
        return answer.head.lines().filter(line -> line.startsWith("x-thread: ")).findFirst().orElseThrow()
                .substring("x-thread: ".length());
    }

    @Test
    void aChunkedRelayRequestGoesToJettyWhole() throws Exception {
        start(null, Duration.ofSeconds(30));
        try (Socket socket = connect()) {
            send(socket, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n0\r\n\r\n");
            assertEquals("jetty POST /v1/chat/completions hello", Answer.read(socket.getInputStream()).body);
        }
        assertEquals(0, front.servedCount());
        assertEquals(1, front.handOffCount());
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        start(null, Duration.ofSeconds(30));
        try (Socket socket = connect()) {
            send(socket, post("/v1/a", "one") + post("/v1/b", "two") + "GET /v1/c HTTP/1.1\r\nHost: x\r\n\r\n");
            InputStream in = socket.getInputStream();
            assertEquals("POST /v1/a null one", Answer.read(in).body);
            assertEquals("POST /v1/b null two", Answer.read(in).body);
            assertEquals("GET /v1/c null ", Answer.read(in).body);
        }
        assertEquals(3, front.servedCount());
    }

    @Test
    void aStreamIsChunkedAndEndsWithTheLastChunk() throws Exception {
        start(null, Duration.ofSeconds(30));
        try (Socket socket = connect()) {
            send(socket, post("/v1/stream", ""));
            Answer answer = Answer.read(socket.getInputStream());
            assertTrue(answer.head.contains("Transfer-Encoding: chunked"), answer.head);
            assertEquals("data: 0\n\ndata: 1\n\ndata: 2\n\n", answer.body);
            send(socket, post("/v1/again", "x")); // the connection carries the next request
            assertEquals("POST /v1/again null x", Answer.read(socket.getInputStream()).body);
        }
    }

    /**
     * N-7: a platform connection thread (lowered for the event writer) relays an answer that comes as it comes at
     * normal priority, and is lowered again for the connection's next request.
     */
    @Test
    void aStreamIsRelayedAtNormalPriorityAndTheNextRequestAtTheLowestAgain() throws Exception {
        start(null, Duration.ofSeconds(30));
        try (Socket socket = connect()) {
            send(socket, post("/v1/stream", ""));
            Answer stream = Answer.read(socket.getInputStream());
            assertEquals("false " + Thread.MIN_PRIORITY, threadHeader(stream), "before its first frame");
            assertEquals(Thread.NORM_PRIORITY, streamingPriority, "once its frames flow");
            send(socket, post("/v1/again", "x"));
            assertEquals("false " + Thread.MIN_PRIORITY, threadHeader(Answer.read(socket.getInputStream())));
        }
    }

    @Test
    void anAddressAtTheConnectionCapHasItsNextConnectionClosedAtOnce() throws Exception {
        ConnectionCap cap = new ConnectionCap(1, address -> false, 300_000);
        start(cap, Duration.ofSeconds(30));
        try (Socket first = connect(); Socket second = connect()) {
            assertEquals(-1, second.getInputStream().read()); // closed before a byte was read
            send(first, post("/v1/a", "still served"));
            assertEquals("POST /v1/a null still served", Answer.read(first.getInputStream()).body);
        }
        assertEquals(1, cap.refusedCount());
    }

    @Test
    void aClientThatStopsReadingIsClosedByTheWatchdogAndTheWriterLearnsItWentAway() throws Exception {
        start(null, Duration.ofSeconds(30));
        try (Socket socket = connect()) {
            socket.setReceiveBufferSize(4096);
            send(socket, post("/v1/flood", ""));
            // the answer has begun (so the request's reads are over: a read in progress would look stalled to a
            // watchdog asked 31 s ahead), then nothing more is read: the front's write blocks once the socket buffers
            // are full; the watchdog, asked as if the answer's idle time had passed, closes it (asked again until
            // that write has begun). An admitted answer's write is never cut at the client timeout (30 s) nor before
            // its own 300 s
            assertTrue(socket.getInputStream().read(new byte[16]) > 0);
            while (true) {
                assertEquals(0, front.closeStalled(System.nanoTime() + TimeUnit.SECONDS.toNanos(31)));
                assertEquals(0, front.closeStalled(System.nanoTime() + TimeUnit.SECONDS.toNanos(299)));
                if (front.closeStalled(System.nanoTime() + TimeUnit.SECONDS.toNanos(301)) > 0) {
                    break;
                }
                Thread.onSpinWait();
            }
            assertTrue(clientGone.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void aBodyThatStallsPastTheClientTimeoutIsAnsweredTooSlowAndItsConnectionClosed() throws Exception {
        start(null, Duration.ofMillis(300));
        try (Socket socket = connect()) {
            send(socket, "POST /v1/a HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc");
            Answer answer = Answer.read(socket.getInputStream());
            assertEquals(408, answer.status);
            assertTrue(answer.head.contains("Connection: close"), answer.head);
            assertEquals(-1, socket.getInputStream().read());
        }
    }

    @Test
    void aHeadThatStallsIsClosedByTheWatchdogOnlyOnceTheClientTimeoutHasPassed() throws Exception {
        start(null, Duration.ofSeconds(30));
        try (Socket socket = connect()) {
            // a request and half the next head in one write (one segment: the front reads both at once, so no byte
            // of it is still on its way when the watchdog looks), then silence
            send(socket, post("/v1/a", "first") + "POST /v1/a HTTP/1.1\r\nHost");
            assertEquals("POST /v1/a null first", Answer.read(socket.getInputStream()).body);
            // the front's read has no socket timeout: the watchdog, asked as if time had passed, ends it past 30 s
            // only (asked again until that read has begun)
            while (true) {
                assertEquals(0, front.closeStalled(System.nanoTime() + TimeUnit.SECONDS.toNanos(29)));
                if (front.closeStalled(System.nanoTime() + TimeUnit.SECONDS.toNanos(31)) > 0) {
                    break;
                }
                Thread.onSpinWait();
            }
            assertEquals(-1, socket.getInputStream().read()); // closed, nothing written
        }
        assertEquals(1, front.servedCount());
    }

    @Test
    void aBodyStalledPastTheClientTimeoutByTheWatchdogsClockIsStillAnsweredTooSlow() throws Exception {
        start(null, Duration.ofSeconds(30));
        try (Socket socket = connect()) {
            send(socket, "POST /v1/a HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc");
            while (front.servedCount() == 0) {
                Thread.onSpinWait(); // until the head was read (and "abc" with it: one segment), so no byte is on its way
            }
            while (front.closeStalled(System.nanoTime() + TimeUnit.SECONDS.toNanos(31)) == 0) {
                Thread.onSpinWait(); // until the body's read has begun
            }
            Answer answer = Answer.read(socket.getInputStream()); // the input was shut, the output was not
            assertEquals(408, answer.status);
            assertTrue(answer.head.contains("Connection: close"), answer.head);
            assertEquals(-1, socket.getInputStream().read());
        }
    }

    @Test
    void whileDrainingARequestOnAKeptAliveConnectionIsRefusedAndItsConnectionClosed() throws Exception {
        start(null, Duration.ofSeconds(30));
        try (Socket socket = connect()) {
            send(socket, post("/v1/a", "before"));
            assertEquals("POST /v1/a null before", Answer.read(socket.getInputStream()).body);
            assertTrue(front.drain(Duration.ofSeconds(5)));
            send(socket, post("/v1/a", "after"));
            Answer refused = Answer.read(socket.getInputStream());
            assertEquals(503, refused.status);
            assertTrue(refused.head.contains("Connection: close"), refused.head);
            assertEquals(-1, socket.getInputStream().read());
        }
    }

    @Test
    void aClientThatClosesWhileItsRequestWaitsIsSeenGone() throws Exception {
        start(null, Duration.ofSeconds(30));
        try (Socket socket = connect()) {
            send(socket, post("/v1/wait", "w"));
            waiting.get(30, TimeUnit.SECONDS);
            socket.shutdownOutput(); // the client's FIN: nothing read or written by the request's thread
            assertTrue(watchedGone.get(30, TimeUnit.SECONDS));
            waitEnds.countDown();
        }
    }

    @Test
    void bytesAClientSendsWhileItsRequestWaitsAreItsNextRequest() throws Exception {
        start(null, Duration.ofSeconds(30));
        try (Socket socket = connect()) {
            send(socket, post("/v1/wait", "w"));
            waiting.get(30, TimeUnit.SECONDS);
            send(socket, post("/v1/next", "pipelined")); // read by the gone watch, kept for the connection
            waitEnds.countDown();
            InputStream in = socket.getInputStream();
            assertEquals("POST /v1/wait null w", Answer.read(in).body);
            assertEquals("POST /v1/next null pipelined", Answer.read(in).body);
        }
        assertFalse(watchedGone.isDone());
        assertEquals(2, front.servedCount());
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", front.port());
        socket.setSoTimeout(30_000);
        return socket;
    }

    private static String post(String target, String body) {
        return "POST " + target + " HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: "
                + body.length() + "\r\n\r\n" + body;
    }

    private static void send(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** One answer read off the socket: status, head, and its body by Content-Length or chunks. */
    private record Answer(int status, String head, String body) {
        static Answer read(InputStream in) throws IOException {
            String head = line(in);
            StringBuilder headers = new StringBuilder(head).append("\n");
            long length = -1;
            boolean chunked = false;
            for (String line; !(line = line(in)).isEmpty(); ) {
                headers.append(line).append("\n");
                String lower = line.toLowerCase();
                if (lower.startsWith("content-length:")) {
                    length = Long.parseLong(line.substring(15).trim());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                }
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            if (chunked) {
                for (int size; (size = Integer.parseInt(line(in).trim(), 16)) > 0; ) {
                    body.write(in.readNBytes(size));
                    line(in);
                }
                line(in);
            } else if (length >= 0) {
                body.write(in.readNBytes((int) length));
            }
            return new Answer(Integer.parseInt(head.split(" ")[1]), headers.toString(),
                    body.toString(StandardCharsets.US_ASCII));
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) {
                    throw new IOException("closed mid-answer after: " + line);
                }
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        }
    }
}
