package dev.detour.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.FakeUpstream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fault proxy itself (D-6), checked with a plain socket client against the fake upstream: the same
 * HTTP exchange sent direct and through the proxy, byte for byte. "Nothing arrives" is a read that waits
 * {@link #QUIET} in vain: the proxy can only send those bytes after {@link TcpFaultProxy#release()}, so a
 * slow machine can make no such check pass or fail wrongly.
 */
@Timeout(60) // hang guard only
class TcpFaultProxyIT {
    private static final int QUIET = 300;
    private static final String BODY = "{\"model\":\"m\",\"messages\":[]}";
    private FakeUpstream upstream;
    private TcpFaultProxy proxy;
    private byte[] direct;
    private int headerEnd;

    @BeforeEach
    void start() throws IOException {
        upstream = FakeUpstream.start();
        proxy = TcpFaultProxy.to(upstream);
        direct = exchange(upstream.port());
        headerEnd = indexOfHeaderEnd(direct);
        assertTrue(headerEnd > 0 && headerEnd < direct.length, "control: headers then a body, direct");
    }

    @AfterEach
    void stop() {
        proxy.close();
        upstream.close();
    }

    @Test
    void withoutAFaultTheAnswerIsByteForByteTheUpstreamsAndTheRequestArrivesWhole() throws IOException {
        assertArrayEquals(direct, exchange(proxy.port()));
        assertEquals(BODY, upstream.lastRequest().body());
        assertEquals(2, upstream.requestCount());
    }

    @Test
    void latencyDelaysTheExchangeAndChangesNoByte() throws IOException {
        proxy.fault(Fault.latency(Duration.ofMillis(200)));
        long start = System.nanoTime();
        byte[] answer = exchange(proxy.port());
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertArrayEquals(direct, answer);
        // a lower bound (the request's and the answer's chunk each waited): no machine is faster than that
        assertTrue(tookMillis >= 400, "took " + tookMillis + " ms");
    }

    @Test
    void aStallBeforeHeadersDeliversTheRequestAndHoldsTheWholeAnswerUntilReleased() throws Exception {
        proxy.fault(Fault.stallBeforeHeaders());
        try (Socket socket = send(proxy.port())) {
            upstream.awaitRequests(2);
            Gateway.await(() -> proxy.held() == 1, "the answer is held");
            assertEquals(0, readQuietly(socket).length, "nothing before the release");
            proxy.release();
            assertArrayEquals(direct, readToEnd(socket.getInputStream()));
        }
    }

    @Test
    void aStallMidBodySendsTheHeadersAndTheGivenBodyBytesThenHoldsTheRest() throws Exception {
        proxy.fault(Fault.stallMidBody(10));
        try (Socket socket = send(proxy.port())) {
            byte[] head = readExactly(socket.getInputStream(), headerEnd + 10);
            assertArrayEquals(Arrays.copyOf(direct, headerEnd + 10), head);
            assertEquals(0, readQuietly(socket).length, "the rest is held");
            assertEquals(1, proxy.held());
            proxy.release();
            assertArrayEquals(Arrays.copyOfRange(direct, headerEnd + 10, direct.length),
                    readToEnd(socket.getInputStream()));
        }
    }

    @Test
    void aResetEndsTheConnectionWithAnRstInsteadOfTheAnswer() throws Exception {
        proxy.fault(Fault.reset());
        try (Socket socket = send(proxy.port())) {
            SocketException reset = assertThrows(SocketException.class, () -> socket.getInputStream().read());
            assertTrue(reset.getMessage().toLowerCase().contains("reset"), reset.getMessage());
        }
        assertEquals(2, upstream.requestCount(), "the request did reach the upstream");
    }

    @Test
    void aResetMidBodyComesAfterTheHeadersAndTheGivenBodyBytes() throws Exception {
        proxy.fault(Fault.resetMidBody(10));
        try (Socket socket = send(proxy.port())) {
            InputStream in = socket.getInputStream();
            assertArrayEquals(Arrays.copyOf(direct, headerEnd + 10), readExactly(in, headerEnd + 10));
            SocketException reset = assertThrows(SocketException.class, () -> in.read());
            assertTrue(reset.getMessage().toLowerCase().contains("reset"), reset.getMessage());
        }
    }

    @Test
    void halfOpenAcceptsThenNeitherForwardsNorAnswersNorCloses() throws Exception {
        proxy.fault(Fault.halfOpen());
        try (Socket socket = send(proxy.port())) {
            assertEquals(0, readQuietly(socket).length, "no byte and no end of stream");
            assertEquals(1, upstream.requestCount(), "the upstream never heard of it (only the direct control)");
            assertEquals(1, proxy.openConnections(), "still open on the proxy's side");
            proxy.close();
            assertEquals(-1, readEndOrReset(socket.getInputStream()), "only the proxy's own close ends it");
        }
    }

    @Test
    void halfOpenMidBodyGoesSilentAfterTheGivenBytesAndNeverCloses() throws Exception {
        proxy.fault(Fault.halfOpenMidBody(5));
        try (Socket socket = send(proxy.port())) {
            InputStream in = socket.getInputStream();
            assertArrayEquals(Arrays.copyOf(direct, headerEnd + 5), readExactly(in, headerEnd + 5));
            assertEquals(0, readQuietly(socket).length, "silence, and no end of stream");
            proxy.release();
            assertEquals(0, readQuietly(socket).length, "a release does not revive a dead peer");
        }
    }

    @Test
    void aSlowDripDeliversTheWholeAnswerAFewBytesAtATime() throws IOException {
        proxy.fault(Fault.drip(32, Duration.ofMillis(10)));
        long start = System.nanoTime();
        byte[] answer = exchange(proxy.port());
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertArrayEquals(direct, answer);
        long pieces = (direct.length + 31) / 32;
        assertTrue(tookMillis >= (pieces - 1) * 10, pieces + " pieces took " + tookMillis + " ms"); // lower bound
    }

    @Test
    void truncateAfterNBytesSendsExactlyThoseThenACleanEnd() throws IOException {
        proxy.fault(Fault.truncateAfter(20));
        assertArrayEquals(Arrays.copyOf(direct, 20), exchange(proxy.port()), "FIN after 20 bytes, no reset");
        proxy.fault(Fault.truncateMidBody(7));
        assertArrayEquals(Arrays.copyOf(direct, headerEnd + 7), exchange(proxy.port()));
    }

    @Test
    void refuseClosesThePortUntilItAcceptsAgain() throws IOException {
        proxy.refuse();
        assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", proxy.port()).close());
        proxy.accept();
        assertArrayEquals(direct, exchange(proxy.port()), "the same port serves again");
    }

    @Test
    void aQueuedFaultTakesTheNextConnectionOnlyAndAStandingFaultTheRest() throws IOException {
        proxy.fault(Fault.truncateAfter(3)).nextConnection(Fault.NONE, Fault.truncateAfter(9));
        assertArrayEquals(direct, exchange(proxy.port()));
        assertEquals(9, exchange(proxy.port()).length);
        assertEquals(3, exchange(proxy.port()).length);
        proxy.healthy();
        assertArrayEquals(direct, exchange(proxy.port()));
        assertEquals(4, proxy.connectionsAccepted());
    }

    /** One POST with {@code Connection: close}, read to the end. */
    private static byte[] exchange(int port) throws IOException {
        try (Socket socket = send(port)) {
            return readToEnd(socket.getInputStream());
        }
    }

    private static Socket send(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000); // a hang guard
        byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
        socket.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close"
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().write(body);
        socket.getOutputStream().flush();
        return socket;
    }

    private static byte[] readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        return all.toByteArray();
    }

    private static byte[] readExactly(InputStream in, int count) throws IOException {
        byte[] bytes = in.readNBytes(count);
        assertEquals(count, bytes.length, "the stream ended early");
        return bytes;
    }

    /** Whatever arrives within {@link #QUIET} ms; an end of stream here is a failure (it must stay open). */
    private static byte[] readQuietly(Socket socket) throws IOException {
        socket.setSoTimeout(QUIET);
        byte[] buffer = new byte[4096];
        try {
            int n = socket.getInputStream().read(buffer);
            if (n < 0) {
                throw new AssertionError("the connection ended");
            }
            return Arrays.copyOf(buffer, n);
        } catch (SocketTimeoutException e) {
            return new byte[0];
        } finally {
            socket.setSoTimeout(30_000);
        }
    }

    private static int readEndOrReset(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // drain
            }
            return -1;
        } catch (SocketException e) {
            return -1;
        }
    }

    private static int indexOfHeaderEnd(byte[] answer) {
        String text = new String(answer, StandardCharsets.ISO_8859_1);
        return text.indexOf("\r\n\r\n") + 4;
    }
}
