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
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstreams are https in production: the client's TLS against a real TLS server on loopback, with a certificate for
 * {@code localhost} made by the JDK's keytool for this run. The handshake verifies the host name, trusts only what
 * its trust store holds, and counts against the connect timeout.
 */
@Timeout(60) // a hang guard only: no assertion here depends on timing
class Http1UpstreamClientTlsIT {
    private static final String ANSWER = "{\"object\":\"list\",\"data\":[]}";
    private static final char[] PASSWORD = "changeit".toCharArray();

    @TempDir
    static Path dir;
    private static SSLContext serverContext;
    private static SSLSocketFactory trusting;

    @BeforeAll
    static void certificate() throws Exception {
        Path store = dir.resolve("upstream.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "upstream", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost", "-validity", "2",
                "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(keytool.waitFor(30, TimeUnit.SECONDS) && keytool.exitValue() == 0, output);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD);
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, PASSWORD);
        serverContext = SSLContext.getInstance("TLS");
        serverContext.init(keyManagers.getKeyManagers(), null, null);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(keys);
        SSLContext clientContext = SSLContext.getInstance("TLS");
        clientContext.init(null, trust.getTrustManagers(), null);
        trusting = clientContext.getSocketFactory();
    }

    @AfterAll
    static void forget() {
        serverContext = null;
        trusting = null;
    }

    @Test
    void anHttpsUpstreamIsAnsweredAndItsConnectionReused() throws Exception {
        try (TlsUpstream upstream = new TlsUpstream(); Http1UpstreamClient client = client(trusting, 5)) {
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

    @Test
    void aCertificateForAnotherHostNameIsRefusedAsTls() throws Exception {
        try (TlsUpstream upstream = new TlsUpstream(); Http1UpstreamClient client = client(trusting, 5)) {
            // the certificate names localhost; the URL names the address: the host name check refuses it
            UpstreamTransportException e = assertThrows(UpstreamTransportException.class,
                    () -> client.send(post("https://127.0.0.1:" + upstream.port() + "/v1/x")));
            assertEquals(TransportErrorType.TLS, e.error().type(), e.getMessage());
            assertEquals(0, upstream.answered.get());
        }
    }

    @Test
    void aCertificateNoTrustedAuthoritySignedIsRefusedAsTls() throws Exception {
        try (TlsUpstream upstream = new TlsUpstream();
                Http1UpstreamClient client = client((SSLSocketFactory) SSLSocketFactory.getDefault(), 5)) {
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
                Http1UpstreamClient client = client(trusting, 1)) {
            UpstreamTransportException e = assertThrows(UpstreamTransportException.class,
                    () -> client.send(post("https://localhost:" + silent.getLocalPort() + "/v1/x")));
            assertEquals(TransportErrorType.CONNECT_TIMEOUT, e.error().type(), e.getMessage());
            assertEquals("connect timeout: no connection within 1 s", e.getMessage());
        }
    }

    private static Http1UpstreamClient client(SSLSocketFactory tls, int connectSeconds) {
        return new Http1UpstreamClient(Duration.ofSeconds(connectSeconds), Duration.ofSeconds(30), 10, 10,
                Http1UpstreamClient.UNCHECKED_REUSE, System::nanoTime, true, tls);
    }

    private static UpstreamRequest post(String url) {
        return new UpstreamRequest("POST", url, List.of(new Header("Authorization", "Bearer sk-tls-0123456789abcd"),
                new Header("Content-Type", "application/json")), "{}".getBytes(StandardCharsets.UTF_8));
    }

    /** A keep-alive HTTP/1.1 server over TLS answering every request with {@link #ANSWER}. */
    private static final class TlsUpstream implements AutoCloseable {
        final AtomicInteger accepted = new AtomicInteger();
        final AtomicInteger answered = new AtomicInteger();
        private final SSLServerSocket server;
        private final Thread serving;

        TlsUpstream() throws IOException {
            server = (SSLServerSocket) serverContext.getServerSocketFactory()
                    .createServerSocket(0, 8, InetAddress.getLoopbackAddress());
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
                    InputStream in = socket.getInputStream();
                    OutputStream out = socket.getOutputStream();
                    while (readRequest(in)) {
                        byte[] body = ANSWER.getBytes(StandardCharsets.UTF_8);
                        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                                + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.write(body);
                        out.flush();
                        answered.incrementAndGet();
                    }
                } catch (IOException e) {
                    // a refused handshake or the test closing the server: take the next connection
                }
            }
        }

        /** Reads one request's head and Content-Length body; false at the connection's end. */
        private static boolean readRequest(InputStream in) throws IOException {
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return false;
                }
                head.append((char) b);
            }
            int length = 0;
            for (String line : head.toString().split("\r\n")) {
                if (line.toLowerCase().startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring(15).trim());
                }
            }
            in.readNBytes(length);
            return true;
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
