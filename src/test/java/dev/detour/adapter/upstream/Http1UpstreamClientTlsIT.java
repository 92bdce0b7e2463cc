package dev.detour.adapter.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.failure.TransportErrorType;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.port.UpstreamResponse;
import dev.detour.gateway.port.UpstreamTransportException;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.LocalhostTls;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Upstreams are https in production: the client's TLS ({@link TlsChannel}) against a real TLS server on loopback,
 * with a certificate for {@code localhost} made by the JDK's keytool for this run ({@link LocalhostTls}). The
 * handshake verifies the host name, trusts only what its trust store holds, and counts against the connect timeout.
 */
@Timeout(60) // a hang guard only: no assertion here depends on timing
class Http1UpstreamClientTlsIT {
    private static final String ANSWER = "{\"object\":\"list\",\"data\":[]}";

    private static SSLContext trusting() {
        return LocalhostTls.get().trustingClient();
    }

    @Test
    void anHttpsUpstreamIsAnsweredAndItsConnectionReused() throws Exception {
        try (TlsUpstream upstream = new TlsUpstream(false); Http1UpstreamClient client = client(trusting(), 5)) {
            for (int i = 0; i < 3; i++) {
                try (UpstreamResponse response = client.send(post("https://localhost:" + upstream.port() + "/v1/x"))) {
                    assertEquals(200, response.status());
                    assertEquals(ANSWER, new String(response.body().readAllBytes(), StandardCharsets.UTF_8));
                }
            }
            assertEquals(1, upstream.accepted.get(), "one TLS connection for the three exchanges");
            assertEquals(3, upstream.answered.get());
        }
    }

    /** Checked at every lease: a live TLS connection is found open (what came meanwhile is TLS's own, not a byte). */
    @Test
    void anIdleHttpsConnectionCheckedAtLeaseIsFoundOpenAndReused() throws Exception {
        try (TlsUpstream upstream = new TlsUpstream(false);
                Http1UpstreamClient client = client(trusting(), 5, Duration.ZERO)) {
            for (int i = 0; i < 3; i++) {
                try (UpstreamResponse response = client.send(post("https://localhost:" + upstream.port() + "/v1/x"))) {
                    assertEquals(ANSWER, new String(response.body().readAllBytes(), StandardCharsets.UTF_8));
                }
            }
            assertEquals(1, upstream.accepted.get(), "the checks found the connection open");
            assertTrue(client.leaseTimeChecks() >= 2, "the reuses were checked: " + client.leaseTimeChecks());
        }
    }

    /** The upstream ends TLS (close_notify) after each answer: the check finds it closed, a new connection serves. */
    @Test
    void anHttpsConnectionTheUpstreamClosedWhileIdleIsNotReused() throws Exception {
        try (TlsUpstream upstream = new TlsUpstream(true);
                Http1UpstreamClient client = client(trusting(), 5, Duration.ZERO)) {
            for (int i = 0; i < 3; i++) {
                try (UpstreamResponse response = client.send(post("https://localhost:" + upstream.port() + "/v1/x"))) {
                    assertEquals(200, response.status());
                    assertEquals(ANSWER, new String(response.body().readAllBytes(), StandardCharsets.UTF_8));
                }
                Gateway.await(() -> upstream.closed.get() == upstream.accepted.get(), "the upstream closed it");
            }
            assertEquals(3, upstream.accepted.get(), "each closed connection was found closed");
            assertEquals(3, upstream.answered.get(), "and no request was sent on one");
        }
    }

    /** TLS 1.2 (many relays still speak it), the upstream renegotiating between answers: handled mid-exchange. */
    @Test
    void aTls12UpstreamThatRenegotiatesBetweenAnswersKeepsTheConnection() throws Exception {
        try (TlsUpstream upstream = new TlsUpstream(false, true); Http1UpstreamClient client = client(trusting(), 5)) {
            for (int i = 0; i < 3; i++) {
                try (UpstreamResponse response = client.send(post("https://localhost:" + upstream.port() + "/v1/x"))) {
                    assertEquals(200, response.status());
                    assertEquals(ANSWER, new String(response.body().readAllBytes(), StandardCharsets.UTF_8));
                }
            }
            assertEquals(1, upstream.accepted.get(), "one connection through the renegotiations");
            assertEquals(3, upstream.answered.get());
            // a renegotiation runs across exchanges (the client meets the HelloRequest in the next answer, the server
            // its last message in the next request); the server's listeners hear of it on a thread of their own
            Gateway.await(() -> upstream.handshakes.get() >= 2, "a renegotiation completed");
        }
    }

    /** Bodies larger than a TLS record both ways: a 256 KiB request echoed back, many records each. */
    @Test
    void bodiesOfManyTlsRecordsGoAndComeWhole() throws Exception {
        StringBuilder large = new StringBuilder();
        for (int i = 0; large.length() < 256 * 1024; i++) {
            large.append("{\"line\":").append(i).append("}\n");
        }
        byte[] body = large.toString().getBytes(StandardCharsets.UTF_8);
        try (TlsUpstream upstream = new TlsUpstream(false); Http1UpstreamClient client = client(trusting(), 5)) {
            for (int i = 0; i < 2; i++) {
                UpstreamRequest echo = new UpstreamRequest("POST", "https://localhost:" + upstream.port() + "/echo",
                        List.of(new Header("Content-Type", "application/json")), body);
                try (UpstreamResponse response = client.send(echo)) {
                    assertEquals(200, response.status());
                    assertTrue(java.util.Arrays.equals(body, response.body().readAllBytes()), "echoed whole");
                }
            }
            assertEquals(1, upstream.accepted.get());
        }
    }

    @Test
    void aCertificateForAnotherHostNameIsRefusedAsTls() throws Exception {
        try (TlsUpstream upstream = new TlsUpstream(false); Http1UpstreamClient client = client(trusting(), 5)) {
            // the certificate names localhost; the URL names the address: the host name check refuses it
            UpstreamTransportException e = assertThrows(UpstreamTransportException.class,
                    () -> client.send(post("https://127.0.0.1:" + upstream.port() + "/v1/x")));
            assertEquals(TransportErrorType.TLS, e.error().type(), e.getMessage());
            assertEquals(0, upstream.answered.get());
        }
    }

    @Test
    void aCertificateNoTrustedAuthoritySignedIsRefusedAsTls() throws Exception {
        try (TlsUpstream upstream = new TlsUpstream(false);
                Http1UpstreamClient client = client(SSLContext.getDefault(), 5)) {
            UpstreamTransportException e = assertThrows(UpstreamTransportException.class,
                    () -> client.send(post("https://localhost:" + upstream.port() + "/v1/x")));
            assertEquals(TransportErrorType.TLS, e.error().type(), e.getMessage());
            assertFalse(e.getMessage().contains("sk-tls"), e.getMessage());
        }
    }

    /** A server that takes the connection but never answers the handshake: the connect timeout ends the wait. */
    @Test
    void aHandshakeThatNeverCompletesIsAConnectTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                Http1UpstreamClient client = client(trusting(), 1)) {
            UpstreamTransportException e = assertThrows(UpstreamTransportException.class,
                    () -> client.send(post("https://localhost:" + silent.getLocalPort() + "/v1/x")));
            assertEquals(TransportErrorType.CONNECT_TIMEOUT, e.error().type(), e.getMessage());
            assertEquals("connect timeout: no connection within 1 s", e.getMessage());
        }
    }

    private static Http1UpstreamClient client(SSLContext tls, int connectSeconds) {
        return client(tls, connectSeconds, Http1UpstreamClient.UNCHECKED_REUSE);
    }

    private static Http1UpstreamClient client(SSLContext tls, int connectSeconds, Duration uncheckedReuse) {
        return new Http1UpstreamClient(Duration.ofSeconds(connectSeconds), Duration.ofSeconds(30), 10, 10,
                uncheckedReuse, System::nanoTime, true, tls);
    }

    private static UpstreamRequest post(String url) {
        return new UpstreamRequest("POST", url, List.of(new Header("Authorization", "Bearer sk-tls-0123456789abcd"),
                new Header("Content-Type", "application/json")), "{}".getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A keep-alive HTTP/1.1 server over TLS answering every request with {@link #ANSWER} (a request to {@code /echo}
     * with its own body); one that closes after each answer ends TLS with close_notify.
     */
    private static final class TlsUpstream implements AutoCloseable {
        final AtomicInteger accepted = new AtomicInteger();
        final AtomicInteger answered = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        final AtomicInteger handshakes = new AtomicInteger();
        private final boolean closesAfterAnswer;
        private final boolean renegotiates;
        private final SSLServerSocket server;
        private final Thread serving;

        TlsUpstream(boolean closesAfterAnswer) throws IOException {
            this(closesAfterAnswer, false);
        }

        /** {@code renegotiates}: TLS 1.2 only, and a renegotiation started after each answer (a HelloRequest). */
        TlsUpstream(boolean closesAfterAnswer, boolean renegotiates) throws IOException {
            this.closesAfterAnswer = closesAfterAnswer;
            this.renegotiates = renegotiates;
            server = (SSLServerSocket) LocalhostTls.get().server().getServerSocketFactory()
                    .createServerSocket(0, 8, InetAddress.getLoopbackAddress());
            if (renegotiates) {
                server.setEnabledProtocols(new String[] {"TLSv1.2"});
            }
            serving = new Thread(this::serve, "tls-upstream");
            serving.setDaemon(true);
            serving.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void serve() {
            while (!server.isClosed()) {
                try (Socket socket = server.accept()) {
                    accepted.incrementAndGet();
                    ((SSLSocket) socket).addHandshakeCompletedListener(done -> handshakes.incrementAndGet());
                    InputStream in = socket.getInputStream();
                    OutputStream out = socket.getOutputStream();
                    for (byte[] request; (request = readRequest(in)) != null; ) {
                        byte[] body = request.length > 0 ? request : ANSWER.getBytes(StandardCharsets.UTF_8);
                        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                                + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.write(body);
                        out.flush();
                        answered.incrementAndGet();
                        if (closesAfterAnswer) {
                            break;
                        }
                        if (renegotiates) {
                            ((SSLSocket) socket).startHandshake(); // sends a HelloRequest; the rest comes with reads
                        }
                    }
                } catch (IOException e) {
                    // a refused handshake or the test closing the server: take the next connection
                } finally {
                    closed.incrementAndGet();
                }
            }
        }

        /**
         * Reads one request's head and Content-Length body: the body to echo (empty unless the path is /echo), null
         * at the connection's end.
         */
        private static byte[] readRequest(InputStream in) throws IOException {
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return null;
                }
                head.append((char) b);
            }
            int length = 0;
            for (String line : head.toString().split("\r\n")) {
                if (line.toLowerCase().startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring(15).trim());
                }
            }
            byte[] body = in.readNBytes(length);
            return head.toString().startsWith("POST /echo ") ? body : new byte[0];
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
