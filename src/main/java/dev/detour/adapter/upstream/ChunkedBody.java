package dev.detour.adapter.upstream;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.impl.io.ChunkedInputStream;
import org.apache.hc.core5.http.io.SessionInputBuffer;

/**
 * A chunked upstream body that also knows when its next chunk has already arrived, so a stream relay
 * can pass on every frame that came in one read of the socket with one write to its client.
 *
 * <p>HttpCore's {@link ChunkedInputStream} ends each read at a chunk's end and reports nothing
 * {@link #available()} there, even when the connection's buffer holds the next chunks: an upstream
 * writes each SSE frame as its own chunk, and under load several arrive together. Here, at a chunk's
 * end, the unread bytes are read in place: they are the tail of what the last socket read put in the
 * connection's buffer (HttpCore moves what is unread to the front before each read and appends after
 * it). When they hold the next chunk's whole size line and at least one byte of its data, the next read
 * returns without waiting for the network, and {@code available()} says so. Anything less (a size line
 * cut by the read, the last chunk, bytes that came before this body's first read) reports 0, as before.
 */
final class ChunkedBody extends ChunkedInputStream {
    private final SessionInputBuffer buffer;
    private final LastRead socket;

    private ChunkedBody(SessionInputBuffer buffer, LastRead socket, Http1Config config) {
        super(buffer, socket, config);
        this.buffer = buffer;
        this.socket = socket;
    }

    /** The body of a chunked message read from {@code buffer}, which fills from {@code socket}. */
    static ChunkedBody of(SessionInputBuffer buffer, InputStream socket, Http1Config config) {
        return new ChunkedBody(buffer, new LastRead(socket), config);
    }

    @Override
    public int available() throws IOException {
        int inChunk = super.available();
        if (inChunk > 0) {
            return inChunk;
        }
        int unread = buffer.length();
        if (unread == 0 || socket.bytes == null || unread > socket.end) {
            return 0;
        }
        return nextChunkArrived(socket.bytes, socket.end - unread, socket.end) ? 1 : 0;
    }

    /**
     * Whether {@code bytes[from, to)}, the unread bytes at a chunk boundary, hold the next chunk's size
     * line (after the line end that closes the previous chunk's data, when that is still unread) and at
     * least one byte of a non-empty chunk. A lone LF ends a line, as HttpCore reads it.
     */
    static boolean nextChunkArrived(byte[] bytes, int from, int to) {
        int lineEnd = indexOfLf(bytes, from, to);
        if (lineEnd < 0) {
            return false;
        }
        if (lineEnd == from || (lineEnd == from + 1 && bytes[from] == '\r')) {
            from = lineEnd + 1; // the previous chunk's closing CRLF
            lineEnd = indexOfLf(bytes, from, to);
            if (lineEnd < 0) {
                return false;
            }
        }
        return chunkSize(bytes, from, lineEnd) > 0 && lineEnd + 1 < to;
    }

    /** The size a chunk's size line announces (extensions after ';' ignored), or -1 when it is not one. */
    private static long chunkSize(byte[] bytes, int from, int lineEnd) {
        long size = 0;
        int digits = 0;
        for (int i = from; i < lineEnd; i++) {
            int b = bytes[i];
            int digit = Character.digit(b, 16);
            if (digit >= 0 && digits < 15) {
                size = size * 16 + digit;
                digits++;
            } else if (b == ';' || b == '\r') {
                break;
            } else if (b != ' ' && b != '\t') {
                return -1;
            }
        }
        return digits == 0 ? -1 : size;
    }

    private static int indexOfLf(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The socket's stream, noting where its last read put bytes (for the session buffer, in its own array). */
    private static final class LastRead extends FilterInputStream {
        private byte[] bytes;
        private int end;

        LastRead(InputStream socket) {
            super(socket);
        }

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
            int n = in.read(into, offset, length);
            if (n > 0) {
                bytes = into;
                end = offset + n;
            }
            return n;
        }

        @Override
        public int read() throws IOException {
            bytes = null; // a single byte read is not one the buffer's tail can be found from
            return in.read();
        }
    }
}
