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
 * An upstream on a loopback socket for one connection, writing exactly the bytes a test hands it, each
 * piece in one socket write, when the test hands it: for what only the wire shows, such as two HTTP chunks
 * that arrive in one segment. It reads the request (head and Content-Length body) before the first piece, and
 * the next request on the same connection where the test says so ({@link #nextRequest}). Plain TCP, or TLS with
 * {@link LocalhostTls}'s certificate ({@link #startTls}: each piece of up to 16 KiB is then one TLS record).
 */
public final class SocketUpstream implements AutoCloseable {
    /** The head of a chunked 200 event stream. */
    public static final String SSE_HEAD =
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
    /** The last chunk: the body ends. */
    public static final String LAST_CHUNK = "0\r\n\r\n";

    private static final String CLOSE = new String("close"); // compared by identity: no piece is it
    private static final String NEXT_REQUEST = new String("next request");

    private final ServerSocket server;
    private final String scheme;
    private final BlockingQueue<String> pieces = new LinkedBlockingQueue<>();
    private final Thread serving;

    private SocketUpstream(ServerSocket server, String scheme) {
        this.server = server;
        this.scheme = scheme;
        this.serving = new Thread(this::serve, "socket-upstream");
        serving.setDaemon(true);
        serving.start();
    }

    public static SocketUpstream start() {
        try {
            return new SocketUpstream(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()), "http");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The same over TLS, for {@code localhost} (a client must trust {@link LocalhostTls#trustingClient}). */
    public static SocketUpstream startTls() {
        try {
            return new SocketUpstream(LocalhostTls.get().server().getServerSocketFactory()
                    .createServerSocket(0, 1, InetAddress.getLoopbackAddress()), "https");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One HTTP/1.1 chunk carrying {@code data}. */
    public static String chunk(String data) {
        return Integer.toHexString(data.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + data + "\r\n";
    }

    public String url() {
        return scheme.equals("https") ? "https://localhost:" + server.getLocalPort()
                : "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Writes {@code piece} in one socket write (after the request was read). */
    public void send(String piece) {
        pieces.add(piece);
    }

    /** After the pieces handed so far: reads the next request on the same connection before the next piece. */
    public void nextRequest() {
        pieces.add(NEXT_REQUEST);
    }

    private void serve() {
        try (Socket socket = server.accept()) {
            readRequest(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            for (String piece = pieces.take(); piece != CLOSE; piece = pieces.take()) {
                if (piece == NEXT_REQUEST) {
                    readRequest(socket.getInputStream());
                    continue;
                }
                out.write(piece.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // closed by the test, or the client went away: nothing more to serve
        }
    }

    /** Reads one request's head and Content-Length body; false at the connection's end. */
    static boolean readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return false;
            }
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        for (String line : head.toString(StandardCharsets.US_ASCII).split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                in.readNBytes(Integer.parseInt(line.substring("content-length:".length()).trim()));
            }
        }
        return true;
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
