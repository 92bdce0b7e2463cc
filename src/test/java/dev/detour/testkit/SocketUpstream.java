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
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * An upstream on a plain loopback socket for one exchange, writing exactly the bytes a test hands it, each
 * piece in one socket write, when the test hands it: for what only the wire shows, such as two HTTP chunks
 * that arrive in one segment. It reads the request (head and Content-Length body) before the first piece.
 */
public final class SocketUpstream implements AutoCloseable {
    /** The head of a chunked 200 event stream. */
    public static final String SSE_HEAD =
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
    /** The last chunk: the body ends. */
    public static final String LAST_CHUNK = "0\r\n\r\n";

    private static final String CLOSE = new String("close"); // compared by identity: no piece is it

    private final ServerSocket server;
    private final BlockingQueue<String> pieces = new LinkedBlockingQueue<>();
    private final Thread serving;

    private SocketUpstream(ServerSocket server) {
        this.server = server;
        this.serving = new Thread(this::serve, "socket-upstream");
        serving.setDaemon(true);
        serving.start();
    }

    public static SocketUpstream start() {
        try {
            return new SocketUpstream(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One HTTP/1.1 chunk carrying {@code data}. */
    public static String chunk(String data) {
        return Integer.toHexString(data.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + data + "\r\n";
    }

    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Writes {@code piece} in one socket write (after the request was read). */
    public void send(String piece) {
        pieces.add(piece);
    }

    private void serve() {
        try (Socket socket = server.accept()) {
            readRequest(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            for (String piece = pieces.take(); piece != CLOSE; piece = pieces.take()) {
                out.write(piece.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // closed by the test, or the client went away: nothing more to serve
        }
    }

    private static void readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return;
            }
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        for (String line : head.toString(StandardCharsets.US_ASCII).split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                in.readNBytes(Integer.parseInt(line.substring("content-length:".length()).trim()));
            }
        }
    }

    @Override
    public void close() {
        pieces.add(CLOSE);
        try {
            server.close();
            serving.join(10_000);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
