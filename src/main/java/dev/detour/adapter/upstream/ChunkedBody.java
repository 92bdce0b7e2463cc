package dev.detour.adapter.upstream;

import java.io.IOException;

/**
 * A chunked upstream body (RFC 9112 §7.1) that also knows when its next chunk has already arrived, so a stream relay
 * can pass on every frame that came in one read of the socket with one write to its client: an upstream writes each
 * SSE frame as its own chunk, and under load several arrive together. At a chunk's end, {@link #available()} looks
 * at the connection's buffered bytes: when they hold the next chunk's whole size line and at least one byte of its
 * data, the next read returns without waiting for the network. A read never takes bytes past its chunk, so every
 * byte not yet returned is in the buffer.
 */
final class ChunkedBody extends BulkInput {
    private static final int MAX_TRAILERS = 100;

    private final ReadBuffer in;
    private long leftInChunk;
    private boolean started;
    private boolean ended;

    ChunkedBody(ReadBuffer in) {
        this.in = in;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        if (ended) {
            return -1;
        }
        if (length == 0) {
            return 0;
        }
        if (leftInChunk == 0) {
            nextChunk();
            if (ended) {
                return -1;
            }
        }
        int n = in.read(into, offset, (int) Math.min(length, leftInChunk));
        if (n < 0) {
            throw new Http1Failure.ClosedEarly("the upstream closed the connection inside a chunk");
        }
        leftInChunk -= n;
        return n;
    }

    @Override
    public int available() {
        if (ended) {
            return 0;
        }
        if (leftInChunk > 0) {
            return (int) Math.min(leftInChunk, in.buffered());
        }
        return in.holdsNextChunk() ? 1 : 0;
    }

    /** The end of the body: the last chunk and its trailers were read. */
    boolean ended() {
        return ended;
    }

    /**
     * N-7: whether the body cannot go on without a blocking read's parsing although bytes may need no wait: at a
     * chunk's boundary the buffered bytes hold a whole size line that is the last chunk's (or not a size line at
     * all). A pumped relay gives such a body back to its thread, which reads the end (or the failure) as always.
     */
    boolean stopsAtBoundary() {
        return ended || leftInChunk == 0 && in.holdsLastChunk();
    }

    /** Reads the line end closing the previous chunk's data, then the next chunk's size line, in place. */
    private void nextChunk() throws IOException {
        if (started && !emptyLine("after a chunk")) {
            throw new Http1Failure.BadChunk("a chunk's data is longer than its size");
        }
        started = true;
        int lineEnd = in.lineEnd();
        if (lineEnd < 0) {
            throw new Http1Failure.ClosedEarly("the upstream closed the connection before the next chunk");
        }
        long size = chunkSize(in.array(), in.position(), lineEnd);
        in.skipTo(lineEnd + 1);
        if (size < 0) {
            throw new Http1Failure.BadChunk("bad chunk header");
        }
        if (size == 0) {
            readTrailers();
            ended = true;
        }
        leftInChunk = size;
    }

    private void readTrailers() throws IOException {
        for (int i = 0; i <= MAX_TRAILERS; i++) {
            if (emptyLine("inside the trailers")) {
                return;
            }
        }
        throw new Http1Failure.BadChunk("more than " + MAX_TRAILERS + " trailer lines");
    }

    /** Reads one line; whether it was empty (CRLF or a lone LF). */
    private boolean emptyLine(String where) throws IOException {
        int lineEnd = in.lineEnd();
        if (lineEnd < 0) {
            throw new Http1Failure.ClosedEarly("the upstream closed the connection " + where);
        }
        int from = in.position();
        boolean empty = lineEnd == from || lineEnd == from + 1 && in.array()[from] == '\r';
        in.skipTo(lineEnd + 1);
        return empty;
    }

    /**
     * Whether {@code bytes[from, to)}, the unread bytes at a chunk boundary, hold the next chunk's size line (after
     * the line end that closes the previous chunk's data, when that is still unread) and at least one byte of a
     * non-empty chunk. A lone LF ends a line.
     */
    static boolean nextChunkArrived(byte[] bytes, int from, int to) {
        int start = sizeLineStart(bytes, from, to);
        if (start < 0) {
            return false;
        }
        int lineEnd = indexOfLf(bytes, start, to);
        return chunkSize(bytes, start, lineEnd) > 0 && lineEnd + 1 < to;
    }

    /**
     * Whether {@code bytes[from, to)}, the unread bytes at a chunk boundary, hold a whole size line (after the line
     * end that closes the previous chunk's data) announcing no more data: the last chunk, or a line that is no
     * chunk size.
     */
    static boolean lastChunkArrived(byte[] bytes, int from, int to) {
        int start = sizeLineStart(bytes, from, to);
        return start >= 0 && chunkSize(bytes, start, indexOfLf(bytes, start, to)) <= 0;
    }

    /**
     * Where the next size line starts in {@code bytes[from, to)}, past the line end that closes the previous chunk's
     * data when that is still unread (a lone LF ends a line); -1 when the size line has not wholly arrived.
     */
    private static int sizeLineStart(byte[] bytes, int from, int to) {
        int lineEnd = indexOfLf(bytes, from, to);
        if (lineEnd < 0) {
            return -1;
        }
        if (lineEnd == from || (lineEnd == from + 1 && bytes[from] == '\r')) {
            from = lineEnd + 1; // the previous chunk's closing CRLF
            if (indexOfLf(bytes, from, to) < 0) {
                return -1;
            }
        }
        return from;
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
}
