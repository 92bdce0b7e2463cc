package dev.detour.server.front;

import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.NonBlockingClient;
import dev.detour.gateway.port.ResponseSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eclipse.jetty.http.HttpStatus;

/**
 * {@link ResponseSink} straight onto the front's socket, with its own framing whatever the header list says: a
 * whole answer leaves as head and body in one gathering write with a Content-Length, a streamed one as chunks.
 * Writes gather until a flush (at most {@value #MAX_PENDING} bytes), so frames that arrived together leave in one
 * write (N-7). Each write blocks until the kernel took the bytes; the front's watchdog closes a connection whose
 * write stays blocked (a client that stopped reading).
 */
final class SocketResponseSink implements ResponseSink {
    static final int MAX_PENDING = 32 * 1024;
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final FrontConnection connection;
    private final List<Header> preset = new ArrayList<>(2);
    private int status;
    private List<Header> headers = List.of();
    private boolean begun;
    private boolean headSent;
    private boolean whole;
    private boolean broken;
    private boolean closeAfter;
    private byte[] pending = new byte[0];
    private int pendingLength;

    SocketResponseSink(FrontConnection connection) {
        this.connection = connection;
    }

    /** A header the answer carries before the ones {@link #begin} gets. */
    void preset(String name, String value) {
        preset.add(new Header(name, value));
    }

    /** The connection closes after this answer, which says so ({@code Connection: close}) if it has not begun. */
    void closeAfter() {
        closeAfter = true;
    }

    @Override
    public Runnable watchGone(Runnable action) {
        return connection.watchGone(action);
    }

    @Override
    public void begin(int status, List<Header> headers) {
        this.status = status;
        this.headers = headers;
        begun = true;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws ClientGoneException {
        writable();
        if (pendingLength + length > MAX_PENDING) {
            sendChunk(false);
            if (length > MAX_PENDING) {
                send(chunkHead(length), ByteBuffer.wrap(bytes, offset, length), ByteBuffer.wrap(CRLF));
                return;
            }
        }
        if (pendingLength + length > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pendingLength + length, Math.max(1024, pending.length * 2)));
        }
        System.arraycopy(bytes, offset, pending, pendingLength, length);
        pendingLength += length;
    }

    /** Head and body in one write, with the body's length: the answer is complete. */
    @Override
    public void writeWhole(byte[] body) throws ClientGoneException {
        writable();
        if (headSent || pendingLength > 0) {
            write(body, 0, body.length); // already streaming: the rest of the stream
            flush();
            return;
        }
        whole = true;
        send(head(body.length), ByteBuffer.wrap(body));
    }

    /** Sends what was written; the first flush sends the head even with nothing written yet. */
    @Override
    public void flush() throws ClientGoneException {
        if (!begun || whole || broken) {
            return;
        }
        if (pendingLength > 0 || !headSent) {
            sendChunk(true);
        }
    }

    /**
     * F-4': the connection is dropped without the terminating chunk, so the client's HTTP layer reports a broken
     * transfer instead of a complete body.
     */
    @Override
    public void abort() {
        if (!broken) {
            broken = true;
            pendingLength = 0;
            connection.closeNow();
        }
    }

    @Override
    public boolean committed() {
        return begun;
    }

    /** N-7: a streamed answer's socket, written by a pump without waiting for the client. */
    @Override
    public NonBlockingClient nonBlocking() {
        return headSent && !whole && !broken ? pumpedWrites : null;
    }

    private final NonBlockingClient pumpedWrites = new NonBlockingClient() {
        @Override
        public void start() throws IOException {
            connection.writeWithoutWaiting();
        }

        @Override
        public boolean keptUp() {
            return !connection.keptBytesBack();
        }

        @Override
        public void stop() {
            try {
                connection.writeBlocking();
            } catch (IOException e) {
                broken = true; // the next write or the end finds the client gone
            }
        }
    };

    /**
     * Ends the answer: what is pending leaves with the last chunk.
     *
     * @return true when the answer ended cleanly and the connection may carry the client's next request
     */
    boolean finish() {
        if (!begun || broken) {
            return false;
        }
        if (!whole) {
            try {
                ByteBuffer head = headSent ? null : head(-1);
                headSent = true;
                ByteBuffer last = ByteBuffer.wrap(LAST_CHUNK);
                if (pendingLength == 0) {
                    connection.write(head == null ? new ByteBuffer[] {last} : new ByteBuffer[] {head, last});
                } else {
                    ByteBuffer size = chunkHead(pendingLength);
                    ByteBuffer data = ByteBuffer.wrap(pending, 0, pendingLength);
                    pendingLength = 0;
                    ByteBuffer end = ByteBuffer.wrap(CRLF);
                    connection.write(head == null ? new ByteBuffer[] {size, data, end, last}
                            : new ByteBuffer[] {head, size, data, end, last});
                }
            } catch (IOException e) {
                broken = true;
                return false;
            }
        }
        return !closeAfter;
    }

    private void writable() throws ClientGoneException {
        if (!begun || whole || broken) {
            throw new ClientGoneException(new IOException("no answer to write to"));
        }
    }

    /** What is pending as one chunk (with the head first if it has not left); nothing pending: the head alone. */
    private void sendChunk(boolean evenEmpty) throws ClientGoneException {
        if (pendingLength == 0) {
            if (evenEmpty && !headSent) {
                send();
            }
            return;
        }
        ByteBuffer size = chunkHead(pendingLength);
        ByteBuffer data = ByteBuffer.wrap(pending, 0, pendingLength);
        pendingLength = 0;
        send(size, data, ByteBuffer.wrap(CRLF));
    }

    /** Writes the buffers, after the chunked head when it has not left yet. */
    private void send(ByteBuffer... buffers) throws ClientGoneException {
        ByteBuffer[] all = buffers;
        if (!headSent && !whole) {
            connection.relayingAsItComes();
            all = new ByteBuffer[buffers.length + 1];
            all[0] = head(-1);
            System.arraycopy(buffers, 0, all, 1, buffers.length);
        }
        headSent = true;
        try {
            connection.write(all);
        } catch (IOException e) {
            broken = true;
            throw new ClientGoneException(e);
        }
    }

    private static ByteBuffer chunkHead(int length) {
        return ByteBuffer.wrap((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The status line and headers: the preset ones, then the answer's own but its framing (Content-Length,
     * Transfer-Encoding, Connection, Keep-Alive: this sink frames the answer itself), then the framing.
     *
     * @param contentLength the whole body's length, or -1 for a chunked answer
     */
    private ByteBuffer head(long contentLength) {
        Ascii out = new Ascii(256);
        out.append("HTTP/1.1 ").append(Integer.toString(status)).append(" ").append(HttpStatus.getMessage(status))
                .crlf();
        for (Header h : preset) {
            out.append(h.name()).append(": ").append(h.value()).crlf();
        }
        for (Header h : headers) {
            if (!framing(h.name())) {
                out.append(h.name()).append(": ").append(h.value()).crlf();
            }
        }
        if (contentLength >= 0) {
            out.append("Content-Length: ").append(Long.toString(contentLength)).crlf();
        } else {
            out.append("Transfer-Encoding: chunked").crlf();
        }
        if (closeAfter) {
            out.append("Connection: close").crlf();
        }
        out.crlf();
        return out.buffer();
    }

    private static boolean framing(String name) {
        return name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding")
                || name.equalsIgnoreCase("Connection") || name.equalsIgnoreCase("Keep-Alive");
    }

    /** A head's bytes: one byte per char (ISO-8859-1, as HTTP/1.1 fields are), CR and LF made spaces (no injection). */
    private static final class Ascii {
        private byte[] bytes;
        private int length;

        Ascii(int capacity) {
            bytes = new byte[capacity];
        }

        Ascii append(String s) {
            int n = s.length();
            if (length + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + n + 64));
            }
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                bytes[length++] = c == '\r' || c == '\n' ? (byte) ' ' : (byte) c;
            }
            return this;
        }

        Ascii crlf() {
            if (length + 2 > bytes.length) {
                bytes = Arrays.copyOf(bytes, bytes.length * 2);
            }
            bytes[length++] = '\r';
            bytes[length++] = '\n';
            return this;
        }

        ByteBuffer buffer() {
            return ByteBuffer.wrap(bytes, 0, length);
        }
    }
}
