package dev.detour.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One proxy request on a plain socket, so that "the client went away" is exactly a closed
 * connection (P-7, S-5 tests). Reads lines as they come; {@link #readToEnd()} returns all of them.
 */
public final class RawHttpClient implements AutoCloseable {
    /** Whether a TCP connection to the loopback port is accepted now (a stopping server refuses). */
    public static boolean accepting(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private final Socket socket;
    private final BufferedReader in;
    private final boolean streaming;
    private final StringBuilder seen = new StringBuilder();

    private RawHttpClient(Socket socket, boolean streaming) throws IOException {
        this.socket = socket;
        this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        this.streaming = streaming;
    }

    /** Sends {@code POST /v1/chat/completions} with the Detour key; the body's "stream" decides the kind. */
    public static RawHttpClient post(int port, String key, String body) throws IOException {
        return post(port, key, body, "Connection: close\r\n");
    }

    /**
     * As {@link #post(int, String, String)} on a connection kept open, as SDKs keep theirs: the answer comes
     * chunked, and {@link #received()} shows its chunk framing (read up to a known line, not to the end).
     */
    public static RawHttpClient postKeptAlive(int port, String key, String body) throws IOException {
        return post(port, key, body, "");
    }

    private static RawHttpClient post(int port, String key, String body, String connection) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\n" + connection + "Content-Length: " + bytes.length
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.flush();
        return new RawHttpClient(socket, body.contains("\"stream\":true"));
    }

    /** For a stream: waits until its first data frame arrived (the answer is committed and relaying). */
    public void awaitFirstFrameIfStreaming() throws IOException {
        if (!streaming) {
            return;
        }
        String line;
        while ((line = readLine()) != null && !line.startsWith("data: ")) {
            // headers and chunk sizes
        }
    }

    /** Reads until a line containing {@code text} arrived (or the server closed). */
    public void awaitLineContaining(String text) throws IOException {
        String line;
        while ((line = readLine()) != null && !line.contains(text)) {
            // headers, chunk sizes and earlier frames
        }
    }

    /** Everything this client received, from the status line on, once the server closed. */
    public String readToEnd() throws IOException {
        while (readLine() != null) {
            // keep reading until the server closes
        }
        return seen.toString();
    }

    /** Every line received so far, from the status line on. */
    public String received() {
        return seen.toString();
    }

    private String readLine() throws IOException {
        String line = in.readLine();
        if (line != null) {
            seen.append(line).append('\n');
        }
        return line;
    }

    /** Goes away as an aborted client does: an RST, so the server's next write fails at once. */
    public void abort() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
