package dev.detour.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.App;
import dev.detour.config.ClientLimits;
import dev.detour.config.DetourConfig;
import dev.detour.fake.Bodies;
import dev.detour.testkit.Configs;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.MutableClock;
import dev.detour.fake.Reply;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TestDatabase;
import dev.detour.testkit.ThreadStacks;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * X-4 slow and greedy clients, over real sockets against the real App: bodies buffered as they
 * arrive (not by their declared length) within a global budget, slow or stalled clients cut off by
 * Jetty's own timeouts (set small here), connections per address and anonymous sessions capped.
 */
class SlowClientsIT {
    private static final long MIB = 1024 * 1024;
    /** A safety net so a broken server cannot hang the suite; never what a test asserts. */
    private static final int SOCKET_SAFETY_MS = 60_000;

    // ---- declared length and the body budget -------------------------------------------------

    @Test
    void twelveClientsDeclaringThirtyTwoMebibytesAndSendingOneByteDoNotGrowTheHeapByTheirDeclaredLengths()
            throws Exception {
        try (Gateway gw = Gateway.start()) {
            String key = gw.key();
            long before = heapUsedAfterGc();
            List<Socket> clients = new ArrayList<>();
            try {
                for (int i = 0; i < 12; i++) {
                    Socket socket = connect(gw.app.port());
                    send(socket, postHead(key, "Content-Length: 33554432") + "{");
                    clients.add(socket);
                }
                Gateway.await(() -> workersReadingBodies() == 12, "12 workers blocked reading their bodies");
                long after = heapUsedAfterGc();
                System.out.printf("X-4 declared length: heap used %d MiB before, %d MiB with 12 connections "
                        + "declaring 32 MiB each (growth %d MiB)%n", before / MIB, after / MIB, (after - before) / MIB);
                assertTrue(after - before < 64 * MIB, "heap grew by " + (after - before) / MIB
                        + " MiB for 12 one-byte bodies (old code: 12 x 32 MiB)");
            } finally {
                for (Socket socket : clients) {
                    socket.close();
                }
            }
            Gateway.await(() -> workersReadingBodies() == 0, "workers released once their clients left");
            Gateway.await(() -> metric(gw.app, "detour_request_body_bytes") == 0, "budget released");
        }
    }

    @Test
    void aBodyThatWouldPassTheBudgetGets503RetryableAndTheBudgetIsWhollyReleasedAfterwards() throws Exception {
        ClientLimits small = ClientLimits.DEFAULTS.withBodyBudgetBytes(MIB);
        try (Gateway gw = Gateway.start(c -> c.withClientLimits(small)); FakeUpstream upstream = FakeUpstream.start()) {
            gw.account("a", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", null);
            String key = gw.key();
            byte[] large = chatBody(900_000);
            try (Socket slow = connect(gw.app.port())) {
                OutputStream out = slow.getOutputStream();
                out.write(postHead(key, "Content-Length: " + large.length).getBytes(StandardCharsets.US_ASCII));
                out.write(large, 0, 700_000);
                out.flush();
                Gateway.await(() -> metric(gw.app, "detour_request_body_bytes") >= 700_000, "700 kB buffered");
                long heldBySlow = metric(gw.app, "detour_request_body_bytes"); // its pieces, until more arrives

                HttpResponse<String> refused = gw.post("/v1/chat/completions", new String(chatBody(400_000),
                        StandardCharsets.UTF_8));
                assertEquals(503, refused.statusCode(), refused.body());
                assertEquals("1", refused.headers().firstValue("retry-after").orElse(null));
                assertEquals("gateway.body_budget_exhausted",
                        Gateway.read(refused.body()).path("error").path("code").asText());
                assertEquals(1, metric(gw.app, "detour_body_budget_exhausted_total"));
                // the refused request gives its part back when it ends, just after its answer was sent
                Gateway.await(() -> metric(gw.app, "detour_request_body_bytes") == heldBySlow, "refused part returned");

                out.write(large, 700_000, large.length - 700_000);
                out.flush();
                String answer = readAll(slow);
                assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            }
            Gateway.await(() -> metric(gw.app, "detour_request_body_bytes") == 0, "budget wholly released");
            assertEquals(200, gw.post("/v1/chat/completions", new String(chatBody(400_000),
                    StandardCharsets.UTF_8)).statusCode());
            Gateway.await(() -> metric(gw.app, "detour_request_body_bytes") == 0, "released again");
        }
    }

    @Test
    void aBodyOverThirtyTwoMebibytesIsStill413WhetherDeclaredOrChunked() throws Exception {
        try (Gateway gw = Gateway.start()) {
            String key = gw.key();
            try (Socket declared = connect(gw.app.port())) {
                send(declared, postHead(key, "Content-Length: " + (32 * MIB + 1)));
                String answer = readAll(declared);
                assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
                assertTrue(answer.contains("request.too_large"), answer);
            }
            try (Socket chunked = connect(gw.app.port())) {
                OutputStream out = chunked.getOutputStream();
                out.write(postHead(key, "Transfer-Encoding: chunked").getBytes(StandardCharsets.US_ASCII));
                byte[] piece = new byte[(int) MIB];
                java.util.Arrays.fill(piece, (byte) 'a');
                try {
                    for (int i = 0; i < 33; i++) {
                        out.write((Integer.toHexString(piece.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.write(piece);
                        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                    out.flush();
                } catch (SocketException closedEarly) {
                    // the server answered and closed before the client finished: read what came
                }
                String answer = readAll(chunked);
                assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
            }
            Gateway.await(() -> metric(gw.app, "detour_request_body_bytes") == 0, "budget released");
        }
    }

    @Test
    void anUpstreamAnswerOverSixtyFourMebibytesFailsTheAttemptInsteadOfFillingTheHeap() throws Exception {
        try (Gateway gw = Gateway.start(); FakeUpstream upstream = FakeUpstream.start()) {
            gw.account("a", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", null);
            Reply huge = Reply.json(200, Bodies.chatCompletion("m", "x".repeat((int) (64 * MIB))));
            upstream.handler(request -> huge); // every attempt (a transport failure may be retried)
            HttpResponse<String> answer = gw.chat("m");
            // P-8' (revised from 502): every attempt failed on transport (the cut read) → 503
            assertEquals(503, answer.statusCode(), answer.body().substring(0, Math.min(300, answer.body().length())));
            assertEquals("route_pool.all_failed", Gateway.read(answer.body()).path("error").path("code").asText());
        }
    }

    // ---- slow and stalled clients ------------------------------------------------------------

    private static ClientLimits oneSecondTimeout() {
        return ClientLimits.DEFAULTS.withRequestTimeout(Duration.ofSeconds(1), 1000);
    }

    @Test
    void aClientThatStallsInItsHeadersIsClosedByTheServer() throws Exception {
        try (Gateway gw = Gateway.start(c -> c.withClientLimits(oneSecondTimeout()))) {
            try (Socket socket = connect(gw.app.port())) {
                send(socket, "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty");
                assertEquals("", readAll(socket), "closed without an answer");
            }
        }
    }

    @Test
    void aStalledBodyIsAnswered408AndItsWorkerReleased() throws Exception {
        try (Gateway gw = Gateway.start(c -> c.withClientLimits(oneSecondTimeout()))) {
            String key = gw.key();
            try (Socket socket = connect(gw.app.port())) {
                send(socket, postHead(key, "Content-Length: 1000") + "{\"model\":");
                String answer = readAll(socket); // returns once the server closed the connection
                assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
                assertTrue(answer.contains("request.too_slow"), answer);
                gw.events(1); // its event is written asynchronously
                assertEquals("request.too_slow", gw.event(requestId(answer)).path("error_code").asText());
            }
            Gateway.await(() -> workersReadingBodies() == 0, "worker released");
        }
    }

    @Test
    void aBodyTrickledBelowTheMinimumRateIsAnswered408AndClosed() throws Exception {
        try (Gateway gw = Gateway.start(c -> c.withClientLimits(oneSecondTimeout()))) {
            String key = gw.key();
            try (Socket socket = connect(gw.app.port())) {
                send(socket, postHead(key, "Content-Length: 100000"));
                // one byte every 200 ms: never silent for the 1 s timeout, far below 1000 bytes/s
                CompletableFuture<Void> trickle = CompletableFuture.runAsync(() -> {
                    try {
                        OutputStream out = socket.getOutputStream();
                        for (int i = 0; i < 100_000; i++) {
                            out.write('a');
                            out.flush();
                            Thread.sleep(200); // the slow client itself: Jetty's rate check runs on wall time
                        }
                    } catch (IOException | InterruptedException cutOff) {
                        // the server closed the connection: what this test waits for
                    }
                });
                String answer = readAll(socket);
                assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
                assertTrue(answer.contains("request.too_slow"), answer);
                socket.close();
                trickle.join();
            }
            Gateway.await(() -> workersReadingBodies() == 0, "worker released");
        }
    }

    @Test
    void anAdmittedStreamStaysOpenThroughSilencesLongerThanTheClientTimeout() throws Exception {
        try (Gateway gw = Gateway.start(c -> c.withClientLimits(oneSecondTimeout()));
                FakeUpstream upstream = FakeUpstream.start()) {
            gw.account("a", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", null);
            upstream.enqueue(Reply.sse(Bodies.chatStream("one", "two")).frameDelay(Duration.ofMillis(1500)));
            HttpResponse<InputStream> response = gw.postStreaming("/v1/chat/completions",
                    "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
            String body;
            try (InputStream in = response.body()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            assertEquals(200, response.statusCode());
            assertTrue(body.contains("\"two\"") && body.contains("[DONE]"), body);
        }
    }

    @Test
    void anAdmittedAnswerWaitsForAClientThatReadsLaterThanTheClientTimeout() throws Exception {
        try (Gateway gw = Gateway.start(c -> c.withClientLimits(oneSecondTimeout()));
                FakeUpstream upstream = FakeUpstream.start()) {
            gw.account("a", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", null);
            String text = "x".repeat(16 * 1024 * 1024); // far more than the socket buffers hold
            upstream.enqueue(Reply.json(200, Bodies.chatCompletion("m", text)));
            try (Socket socket = new Socket()) {
                socket.setReceiveBufferSize(4096);
                socket.connect(new java.net.InetSocketAddress("127.0.0.1", gw.app.port()));
                socket.setSoTimeout(SOCKET_SAFETY_MS);
                byte[] body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"
                        .getBytes(StandardCharsets.UTF_8);
                send(socket, postHead(gw.key(), "Content-Length: " + body.length)
                        + new String(body, StandardCharsets.UTF_8));
                upstream.awaitRequests(1);
                // the answer's writes block on the full socket: wait well past the 1 s client timeout
                Gateway.await(() -> workersWritingAnswers() == 1, "the answer's write blocked on the client");
                Thread.sleep(3000); // a client busy elsewhere for 3 s: the duration under test, not a wait
                String answer = readAll(socket);
                assertTrue(answer.startsWith("HTTP/1.1 200"), answer.substring(0, Math.min(200, answer.length())));
                assertTrue(answer.contains(text), "the whole answer arrived");
            }
        }
    }

    // ---- connections per address -------------------------------------------------------------

    @Test
    void theConnectionOverThePerAddressCapIsClosedAtOnceAndCounted() throws Exception {
        ClientLimits capped = ClientLimits.DEFAULTS.withMaxConnectionsPerAddress(3);
        try (App app = TestApp.start(TestApp.config().withClientLimits(capped), MutableClock.at("2026-11-29T10:00:00Z"))) {
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    Socket socket = connect(app.port());
                    assertTrue(health(socket).startsWith("HTTP/1.1 200"), "connection " + (i + 1) + " served");
                    held.add(socket);
                }
                try (Socket extra = connect(app.port())) {
                    assertEquals("", healthOrClosed(extra), "the fourth connection is closed unanswered");
                }
                assertEquals(1, metric(app, "detour_connections_refused_total"));
                assertTrue(health(held.get(0)).startsWith("HTTP/1.1 200"), "the first three are still served");
                held.remove(0).close();
                Gateway.await(() -> {
                    try (Socket again = connect(app.port())) {
                        return healthOrClosed(again).startsWith("HTTP/1.1 200");
                    } catch (IOException e) {
                        return false;
                    }
                }, "a new connection is served once one of the three closed");
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void aTrustedProxyIsExemptFromThePerAddressCap() throws Exception {
        ClientLimits capped = ClientLimits.DEFAULTS.withMaxConnectionsPerAddress(2);
        DetourConfig behindNginx = Configs.withTrustedProxies(List.of("127.0.0.1")).withClientLimits(capped);
        try (App app = TestApp.start(behindNginx, MutableClock.at("2026-11-29T10:00:00Z"))) {
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 5; i++) {
                    Socket socket = connect(app.port());
                    assertTrue(health(socket).startsWith("HTTP/1.1 200"), "connection " + (i + 1) + " served");
                    held.add(socket);
                }
                assertEquals(0, metric(app, "detour_connections_refused_total"));
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
        }
    }

    // ---- anonymous sessions ------------------------------------------------------------------

    @Test
    void anonymousSessionsStayWithinTheirCapTheOldestEndAndTheOwnerStillSignsIn() throws Exception {
        TestDatabase.clean(); // the App start below creates the first admin with the test password
        ClientLimits capped = ClientLimits.DEFAULTS.withMaxAnonymousSessions(5);
        try (App app = TestApp.start(TestApp.config().withClientLimits(capped), MutableClock.at("2026-11-29T10:00:00Z"))) {
            String base = "http://127.0.0.1:" + app.port();
            HttpClient http = HttpClient.newHttpClient();
            List<String[]> forms = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                forms.add(loginForm(http, base));
            }
            assertEquals(5, metric(app, "detour_anonymous_sessions"));
            assertEquals(3, metric(app, "detour_anonymous_sessions_evicted_total"));

            HttpResponse<String> oldest = signIn(http, base, forms.get(0));
            assertEquals(403, oldest.statusCode(), "the oldest anonymous session was ended");

            String[] fresh = loginForm(http, base);
            assertEquals(5, metric(app, "detour_anonymous_sessions"));
            HttpResponse<String> owner = signIn(http, base, fresh);
            assertEquals(303, owner.statusCode(), owner.body());
            assertEquals("/", owner.headers().firstValue("location").orElse(null));
            assertEquals(4, metric(app, "detour_anonymous_sessions"), "a signed-in session is not anonymous");
        }
    }

    /** GET /login without cookies: {session cookie, CSRF token}. */
    private static String[] loginForm(HttpClient http, String base) throws Exception {
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base + "/login")).build(),
                HttpResponse.BodyHandlers.ofString());
        String cookie = page.headers().allValues("set-cookie").stream().filter(c -> c.startsWith("DETOUR_SESSION="))
                .map(c -> c.substring(0, c.indexOf(';'))).findFirst().orElseThrow();
        Matcher csrf = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page.body());
        assertTrue(csrf.find(), page.body());
        return new String[] {cookie, csrf.group(1)};
    }

    private static HttpResponse<String> signIn(HttpClient http, String base, String[] form) throws Exception {
        String fields = "_csrf=" + URLEncoder.encode(form[1], StandardCharsets.UTF_8) + "&username=admin&password="
                + URLEncoder.encode(TestApp.ADMIN_PASSWORD, StandardCharsets.UTF_8);
        return http.send(HttpRequest.newBuilder(URI.create(base + "/login")).header("Cookie", form[0])
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(fields)).build(), HttpResponse.BodyHandlers.ofString());
    }

    // ---- helpers -----------------------------------------------------------------------------

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(SOCKET_SAFETY_MS);
        return socket;
    }

    private static String postHead(String key, String lengthHeader) {
        return "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nConnection: close\r\n" + lengthHeader + "\r\n\r\n";
    }

    private static void send(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Everything the server sends until it closes the connection ("" when it closed without a byte). */
    private static String readAll(Socket socket) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[65536];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                all.write(buffer, 0, n);
            }
        } catch (SocketException reset) {
            // a reset is the server closing too
        }
        return all.toString(StandardCharsets.UTF_8);
    }

    /** One keep-alive GET /healthz on this connection: its status line and headers. */
    private static String health(Socket socket) throws IOException {
        send(socket, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        int contentLength = 0;
        String line;
        while (!(line = readLine(in)).isEmpty()) {
            head.append(line).append('\n');
            if (line.toLowerCase().startsWith("content-length:")) {
                contentLength = Integer.parseInt(line.substring(15).trim());
            }
        }
        in.readNBytes(contentLength);
        return head.toString();
    }

    /** As {@link #health}, but "" when the server closed the connection instead of answering. */
    private static String healthOrClosed(Socket socket) {
        try {
            return health(socket);
        } catch (ClosedUnanswered | SocketException e) {
            return "";
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static final class ClosedUnanswered extends IOException {
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new ClosedUnanswered();
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    private static String requestId(String answer) {
        Matcher m = Pattern.compile("(?i)x-detour-request-id: (\\S+)").matcher(answer);
        assertTrue(m.find(), answer);
        return m.group(1);
    }

    /** A chat request body of exactly {@code size} bytes. */
    private static byte[] chatBody(int size) {
        String head = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"";
        String tail = "\"}]}";
        return (head + "a".repeat(size - head.length() - tail.length()) + tail).getBytes(StandardCharsets.UTF_8);
    }

    private static long metric(App app, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + " (\\d+)$").matcher(app.metrics().render(Instant.now()));
        assertTrue(m.find(), "no metric " + name);
        return Long.parseLong(m.group(1));
    }

    private static long heapUsedAfterGc() {
        var memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** Worker threads blocked reading a proxy request body right now. */
    private static long workersReadingBodies() {
        return workersIn("dev.detour.adapter.proxy.RequestBody", "dev.detour.server.front.BoundedBody");
    }

    /** Worker threads blocked writing a proxy answer right now. */
    private static long workersWritingAnswers() {
        return workersIn("dev.detour.adapter.proxy.JettyResponseSink", "dev.detour.server.front.SocketResponseSink");
    }

    /** Threads (virtual ones too) in the relay's door (Jetty's or the front's) and inside one of {@code ioClasses}. */
    private static long workersIn(String... ioClasses) {
        java.util.Set<String> io = java.util.Set.of(ioClasses);
        return ThreadStacks.classesPerThread().stream()
                .filter(stack -> stack.contains("dev.detour.adapter.proxy.Relay")
                        && stack.stream().anyMatch(io::contains))
                .count();
    }
}
