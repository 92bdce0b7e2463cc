package dev.detour.testkit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One HTTP/1.1 connection kept open across requests, as an SDK's pool keeps it: the way to reach a
 * server after its listener closed (D-3's drain). Answers are read by their Content-Length.
 */
public final class KeepAliveClient implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;

    private KeepAliveClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream()); // answers are read byte by byte
    }

    public static KeepAliveClient open(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(60_000); // a hang guard, never a timing assertion
        socket.setTcpNoDelay(true); // as HTTP clients do: a body sent after its head is not held for the head's ACK
        return new KeepAliveClient(socket);
    }

    /** A status line, lower-cased header names, and the body. */
    public record Answer(int status, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Sends one request on the connection (no body when {@code body} is null) and reads its answer. */
    public Answer send(String method, String path, String key, String body) throws IOException {
        byte[] bytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
        begin(method, path, key, bytes == null ? -1 : bytes.length, bytes == null ? new byte[0] : bytes);
        return answer();
    }

    /**
     * Sends a request's head declaring a body of {@code declaredLength} bytes (none when negative) and only
     * {@code firstPart} of it: the rest follows with {@link #more}, as a client's body arrives in pieces.
     */
    public void begin(String method, String path, String key, int declaredLength, byte[] firstPart)
            throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write((method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key
                + (declaredLength < 0 ? "" : "\r\nContent-Type: application/json\r\nContent-Length: "
                + declaredLength) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        more(firstPart);
    }

    /** More of the body {@link #begin} declared. */
    public void more(byte[] bytes) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
    }

    /** Reads the next answer on the connection. */
    public Answer answer() throws IOException {
        String[] status = line().split(" ", 3);
        Map<String, String> headers = new TreeMap<>();
        for (String header = line(); !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
        }
        String length = headers.get("content-length");
        if (length == null) {
            throw new IOException("only Content-Length answers are read here: " + headers);
        }
        return new Answer(Integer.parseInt(status[1]), headers,
                new String(in.readNBytes(Integer.parseInt(length)), StandardCharsets.UTF_8));
    }

    /** Whether the server closed the connection after the last answer (the next read ends). */
    public boolean closedByServer() {
        try {
            return in.read() < 0;
        } catch (IOException e) {
            return true; // reset: closed as well
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed mid-answer after: " + line);
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
