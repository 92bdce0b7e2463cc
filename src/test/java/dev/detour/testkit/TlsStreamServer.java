package dev.detour.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * An https event-stream upstream in a process of its own, for TLS behaviour a JVM sets once for all its connections:
 * started with a small {@code jdk.tls.keyLimits} it asks for TLS 1.3 key updates every few KiB, which its peer must
 * answer ({@link #start}). One connection. The first request is answered with batches of SSE frames, each frame its
 * own chunk and write, the next batch only when the test says so ({@link #nextBatch}); every later request with one
 * frame. Each answer ends with {@code [DONE]} and the last chunk.
 */
public final class TlsStreamServer implements AutoCloseable {
    private final Process process;
    private final int port;
    private final Path log;

    private TlsStreamServer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * Starts the server on a loopback port with {@link LocalhostTls}'s certificate, asking for a key update after
     * every {@code keyLimitBytes} it encrypts, its TLS handshake messages logged ({@link #log}).
     */
    public static TlsStreamServer start(Path dir, int batches, int framesPerBatch, long keyLimitBytes)
            throws IOException {
        Path security = dir.resolve("key-limits.security");
        Files.writeString(security, "jdk.tls.keyLimits=AES/GCM/NoPadding KeyUpdate " + keyLimitBytes
                + ", ChaCha20-Poly1305 KeyUpdate " + keyLimitBytes + "\n");
        Path log = dir.resolve("tls-stream-server.log");
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.security.properties=" + security, "-Djavax.net.debug=ssl:handshake",
                "-cp", System.getProperty("java.class.path"), TlsStreamServer.class.getName(),
                LocalhostTls.get().keyStore().toString(), Integer.toString(batches), Integer.toString(framesPerBatch))
                .redirectError(log.toFile()).start();
        String first = readLine(process.getInputStream());
        if (first == null || !first.startsWith("port ")) {
            process.destroyForcibly();
            throw new IOException("the TLS stream server did not start: " + first + "\n" + Files.readString(log));
        }
        return new TlsStreamServer(process, Integer.parseInt(first.substring(5).trim()), log);
    }

    public String url() {
        return "https://localhost:" + port;
    }

    /** Lets the server write its next batch. */
    public void nextBatch() throws IOException {
        process.getOutputStream().write('\n');
        process.getOutputStream().flush();
    }

    /** What the server's TLS logged so far (javax.net.debug, handshake messages). */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /**
     * The server process: {@code <key store> <batches> <frames per batch>}; prints {@code port N} once listening,
     * reads a line from its standard input before each batch after the first.
     */
    public static void main(String[] args) throws Exception {
        SSLContext context = LocalhostTls.serverContext(Path.of(args[0]));
        int batches = Integer.parseInt(args[1]);
        int framesPerBatch = Integer.parseInt(args[2]);
        try (ServerSocket server = context.getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            System.out.println("port " + server.getLocalPort());
            System.out.flush();
            try (Socket socket = server.accept()) {
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream();
                for (int request = 0; SocketUpstream.readRequest(in); request++) {
                    out.write(SocketUpstream.SSE_HEAD.getBytes(StandardCharsets.US_ASCII));
                    int frames = request == 0 ? batches * framesPerBatch : 1;
                    for (int i = 0; i < frames; i++) {
                        if (i > 0 && i % framesPerBatch == 0 && readLine(System.in) == null) {
                            return;
                        }
                        out.write(SocketUpstream.chunk("data: {\"n\":" + i + ",\"pad\":\"" + "x".repeat(200)
                                + "\"}\n\n").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                    out.write(SocketUpstream.chunk("data: [DONE]\n\n").getBytes(StandardCharsets.UTF_8));
                    out.write(SocketUpstream.LAST_CHUNK.getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
            }
        }
    }

    /** A line without its end; null at the stream's end. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            line.write(b);
        }
        return b < 0 && line.size() == 0 ? null : line.toString(StandardCharsets.US_ASCII);
    }
}
