package dev.detour.adapter.upstream;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An upstream connection's input: one 8 KiB array the response head and the body's framing are read from. Every
 * byte that came from the socket stays visible here until read, which is what lets a chunked body tell that its
 * next chunk already arrived ({@link ChunkedBody#available}). A body read of a whole buffer or more, with nothing
 * buffered, goes straight into the caller's array.
 */
final class ReadBuffer {
    /** N-7: 8 KiB per upstream connection (1,000 held streams hold 1,000 of them); relayed reads are 8 KiB. */
    static final int SIZE = 8 * 1024;

    private final InputStream source;
    private final byte[] bytes;
    private int position;
    private int end;
    /** A pumped read's failure ({@link #fillNow}), the next blocking read's to throw. */
    private IOException failedNow;

    ReadBuffer(InputStream source) {
        this(source, SIZE);
    }

    ReadBuffer(InputStream source, int size) {
        this.source = source;
        this.bytes = new byte[size];
    }

    /** Bytes read from the socket and not yet taken. */
    int buffered() {
        return end - position;
    }

    /** Whether the buffered bytes hold a chunked body's last size line, see {@link ChunkedBody#lastChunkArrived}. */
    boolean holdsLastChunk() {
        return ChunkedBody.lastChunkArrived(bytes, position, end);
    }

    /** Reads what is buffered, or waits for the socket once; -1 at its end. */
    int read(byte[] into, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (position == end) {
            if (length >= bytes.length) {
                return source.read(into, offset, length);
            }
            if (fill() < 0) {
                return -1;
            }
        }
        int n = Math.min(length, end - position);
        System.arraycopy(bytes, position, into, offset, n);
        position += n;
        return n;
    }

    /**
     * One line without its line end (CRLF, or a lone LF as HTTP/1.1 parsers accept), decoded as ISO-8859-1; null when
     * the socket ends before the line's first byte. A line cut by the end of the socket, or longer than
     * {@code max}, fails.
     */
    String line(int max) throws IOException {
        byte[] longLine = null;
        int longLength = 0;
        for (;;) {
            for (int i = position; i < end; i++) {
                if (bytes[i] == '\n') {
                    int to = i > position && bytes[i - 1] == '\r' ? i - 1 : i;
                    String line;
                    if (longLine == null) {
                        line = new String(bytes, position, to - position, StandardCharsets.ISO_8859_1);
                    } else {
                        longLine = append(longLine, longLength, bytes, position, i - position);
                        longLength += i - position;
                        int length = longLength > 0 && longLine[longLength - 1] == '\r' ? longLength - 1 : longLength;
                        line = new String(longLine, 0, length, StandardCharsets.ISO_8859_1);
                    }
                    position = i + 1;
                    return line;
                }
            }
            if (end - position + longLength > max) {
                throw new Http1Failure.Malformed("a line of the upstream's answer is longer than " + max + " bytes");
            }
            if (end == bytes.length && position == 0 || longLine != null) { // the line fills the buffer: keep it aside
                longLine = append(longLine == null ? new byte[2 * bytes.length] : longLine, longLength, bytes,
                        position, end - position);
                longLength += end - position;
                position = end;
            }
            if (fill() < 0) {
                if (longLength == 0 && position == end) {
                    return null;
                }
                throw new Http1Failure.ClosedEarly("the upstream closed the connection inside a line");
            }
        }
    }

    /**
     * Waits until the buffer holds a whole line no longer than the buffer, and returns the index of its LF in
     * {@link #array()} (the line starts at {@link #position()}); -1 when the socket ends before the line's first
     * byte. For the short lines of a chunked body's framing, read in place without a String.
     */
    int lineEnd() throws IOException {
        int scanned = position;
        for (;;) {
            for (int i = scanned; i < end; i++) {
                if (bytes[i] == '\n') {
                    return i;
                }
            }
            if (position == 0 && end == bytes.length) {
                throw new Http1Failure.Malformed("a line of the upstream's answer is longer than " + bytes.length
                        + " bytes");
            }
            int before = end - position;
            if (fill() < 0) {
                if (before == 0) {
                    return -1;
                }
                throw new Http1Failure.ClosedEarly("the upstream closed the connection inside a line");
            }
            scanned = position + before;
        }
    }

    /** The buffer's array (for {@link #lineEnd}'s line, read in place). */
    byte[] array() {
        return bytes;
    }

    /** Where the unread bytes start in {@link #array()}. */
    int position() {
        return position;
    }

    /** Takes the bytes up to {@code index} (exclusive) as read. */
    void skipTo(int index) {
        position = index;
    }

    /** Whether the buffered bytes hold a chunked body's next chunk, see {@link ChunkedBody#nextChunkArrived}. */
    boolean holdsNextChunk() {
        return ChunkedBody.nextChunkArrived(bytes, position, end);
    }

    /** Whether unread bytes fill the whole buffer: nothing more can be read until some are taken. */
    boolean full() {
        return position == 0 && end == bytes.length;
    }

    /**
     * N-7, on a pumped stream's non-blocking socket: reads what the socket holds without waiting. A failed read is
     * kept for the next blocking read to throw, as if that read had failed.
     *
     * @return the bytes read (0: none had arrived), or -1 when the socket ended or the read failed
     */
    int fillNow() {
        if (failedNow != null) {
            return -1;
        }
        try {
            return take();
        } catch (IOException e) {
            failedNow = e;
            return -1;
        }
    }

    /**
     * Waits for the socket once. Nothing read is a non-blocking socket read past what had arrived (a pumped body's
     * bug): it fails rather than spin on the pump's thread.
     */
    private int fill() throws IOException {
        int n = take();
        if (n == 0) {
            throw new IOException("nothing had arrived: the upstream socket was read without waiting");
        }
        return n;
    }

    /** Reads from the socket once into the buffer's free end, moving unread bytes to the front first when needed. */
    private int take() throws IOException {
        if (failedNow != null) {
            IOException failed = failedNow;
            failedNow = null;
            throw failed;
        }
        if (position == end) {
            position = 0;
            end = 0;
        } else if (end == bytes.length) {
            System.arraycopy(bytes, position, bytes, 0, end - position);
            end -= position;
            position = 0;
        }
        int n = source.read(bytes, end, bytes.length - end);
        if (n > 0) {
            end += n;
        }
        return n;
    }

    private static byte[] append(byte[] to, int length, byte[] from, int offset, int count) {
        byte[] target = length + count <= to.length ? to : Arrays.copyOf(to, Math.max(2 * to.length, length + count));
        System.arraycopy(from, offset, target, length, count);
        return target;
    }
}
