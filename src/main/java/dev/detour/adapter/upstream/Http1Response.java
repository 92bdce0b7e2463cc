package dev.detour.adapter.upstream;

import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.NonBlockingClient;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.port.UpstreamResponse;
import dev.detour.gateway.port.UpstreamTransportException;
import dev.detour.gateway.wire.HeaderPolicy;
import dev.detour.gateway.wire.RequestSecrets;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One open upstream exchange, its head read. The body is read from the connection as it arrives, framed by
 * Content-Length, chunked coding or the connection's end (RFC 9112 §6.3); its end gives the connection back to the
 * pool, anything short of the end drops it (a half-read connection is poison).
 */
final class Http1Response implements UpstreamResponse {
    private static final TransportError ABORTED =
            new TransportError(TransportErrorType.OTHER, "aborted: the connection was dropped by Detour");
    private static final int OPEN = 0;
    private static final int RELEASED = 1;
    private static final int DROPPED = 2;

    private final UpstreamConnection connection;
    private final ConnectionPool pool;
    /** N-7: waits for a stream's bytes on a shared thread; null: every wait is the reader's. */
    private final StreamPump pump;
    private final int status;
    private final List<Header> headers;
    private final UpstreamRequest request;
    private final TransportErrorMapper errors;
    private final Framed content;
    private final boolean reusable;
    private final BodyStream body = new BodyStream();
    private final AtomicInteger state = new AtomicInteger(OPEN);
    private volatile boolean fullyRead;
    private volatile boolean aborted;
    private volatile boolean closed;
    /** The pump reads it: the connection is not blocking, and is not given back to the pool from the pump. */
    private volatile boolean pumping;

    Http1Response(UpstreamConnection connection, ConnectionPool pool, StreamPump pump, ResponseHead head,
            UpstreamRequest request, TransportErrorMapper errors) throws Http1Failure.Malformed {
        this.connection = connection;
        this.pool = pool;
        this.pump = pump;
        this.status = head.status();
        this.headers = endToEnd(head);
        this.request = request;
        this.errors = errors;
        this.content = framing(head, request.method(), connection.input());
        this.reusable = head.keepsAlive() && !(content instanceof UntilClose) && status != 101; // 101: not HTTP any more
        if (content.ended()) {
            finish(); // no body (204, 304, HEAD, Content-Length 0): the connection is free at once
        }
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public List<Header> headers() {
        return headers;
    }

    @Override
    public String header(String name) {
        return ResponseHead.first(headers, name);
    }

    @Override
    public InputStream body() {
        return body;
    }

    /**
     * N-7: a body whose connection a pump can watch (plain or TLS): the pump's thread reads what arrived (never the
     * body's end, which returns the connection to the pool: the reader's thread reads that, blocking again).
     */
    @Override
    public boolean pump(NonBlockingClient client, Arrivals arrivals) {
        if (pump == null || aborted || fullyRead || !connection.isOpen()) {
            return false;
        }
        return pump.relay(new Pumped(), client, arrivals);
    }

    /** Resets the connection at once, from any thread, even mid-read; a no-op once it went back to the pool. */
    @Override
    public void abort() {
        if (aborted) {
            return;
        }
        aborted = true;
        if (state.compareAndSet(OPEN, DROPPED)) {
            connection.reset();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!fullyRead || aborted) {
            abort();
        }
    }

    private void finish() {
        fullyRead = true;
        if (state.compareAndSet(OPEN, RELEASED)) {
            if (reusable) {
                pool.release(connection);
            } else {
                connection.close();
            }
        }
    }

    private static Framed framing(ResponseHead head, String method, ReadBuffer in) throws Http1Failure.Malformed {
        int status = head.status();
        if (method.equalsIgnoreCase("HEAD") || status == 204 || status == 304 || status < 200) {
            return new Fixed(in, 0);
        }
        String coding = head.first("Transfer-Encoding");
        if (coding != null) {
            String last = coding.substring(coding.lastIndexOf(',') + 1).trim();
            return last.equalsIgnoreCase("chunked") ? new Chunked(in) : new UntilClose(in);
        }
        String length = head.first("Content-Length");
        if (length == null) {
            return new UntilClose(in);
        }
        long bytes = 0;
        String digits = length.trim();
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9' || i >= 18) {
                throw new Http1Failure.Malformed("invalid Content-Length from the upstream");
            }
            bytes = bytes * 10 + (c - '0');
        }
        if (digits.isEmpty()) {
            throw new Http1Failure.Malformed("invalid Content-Length from the upstream");
        }
        return new Fixed(in, bytes);
    }

    private static List<Header> endToEnd(ResponseHead head) {
        List<String> named = head.connectionTokens();
        List<Header> kept = new ArrayList<>(head.headers().size());
        for (Header header : head.headers()) {
            String name = header.name();
            if (!HeaderPolicy.isHopByHop(name) && (named.isEmpty() || !named.contains(name.toLowerCase(Locale.ROOT)))) {
                kept.add(header);
            }
        }
        return Collections.unmodifiableList(kept);
    }

    private UpstreamTransportException failure(IOException e) {
        if (aborted) {
            return new UpstreamTransportException(ABORTED, e);
        }
        return errors.toException(e, RequestSecrets.of(request));
    }

    /** Bytes already buffered must not leak out after an abort: the caller asked for the end. */
    private void ensureNotAborted() throws UpstreamTransportException {
        if (aborted) {
            throw new UpstreamTransportException(ABORTED);
        }
    }

    /** The body as the caller reads it: failures come out as {@link UpstreamTransportException}. */
    private final class BodyStream extends BulkInput {
        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            ensureNotAborted();
            if (fullyRead) {
                return -1;
            }
            try {
                int n = content.read(buffer, offset, length);
                if ((n < 0 || content.ended()) && !pumping) {
                    finish(); // pumped: the reader's next read meets the end again, blocking, and finishes
                }
                return n;
            } catch (IOException e) {
                throw failure(e);
            }
        }

        @Override
        public int available() {
            return fullyRead ? 0 : content.available();
        }

        @Override
        public void close() {
            Http1Response.this.close();
        }
    }

    /** The body as a pump sees it, see {@link StreamPump.Upstream}. */
    private final class Pumped implements StreamPump.Upstream {
        @Override
        public SocketChannel channel() {
            return connection.channel();
        }

        @Override
        public void pumped(boolean on) throws IOException {
            if (on) {
                pumping = true;
                connection.pumped(true);
            } else {
                try {
                    connection.pumped(false);
                } finally {
                    pumping = false;
                }
            }
        }

        @Override
        public int takeArrived() {
            return connection.input().fillNow();
        }

        @Override
        public boolean holdsUnread() {
            return connection.holdsUnread();
        }

        @Override
        public boolean goesOn() {
            ReadBuffer in = connection.input();
            return !aborted && !fullyRead && !content.stopsHere() && !(in.full() && content.available() == 0);
        }

        @Override
        public void waiting() {
            connection.waiting();
        }
    }

    /** A body as its framing delimits it. */
    private abstract static class Framed {
        abstract int read(byte[] into, int offset, int length) throws IOException;

        abstract int available();

        /** N-7: the rest of the body (its end, or a framing failure) is for a blocking read, see {@link Pumped}. */
        abstract boolean stopsHere();

        /** Whether the last byte was read: the connection carries nothing more of this answer. */
        abstract boolean ended();
    }

    private static final class Fixed extends Framed {
        private final ReadBuffer in;
        private long left;

        Fixed(ReadBuffer in, long length) {
            this.in = in;
            this.left = length;
        }

        @Override
        int read(byte[] into, int offset, int length) throws IOException {
            if (left == 0) {
                return -1;
            }
            int n = in.read(into, offset, (int) Math.min(length, left));
            if (n < 0) {
                throw new Http1Failure.ClosedEarly("Premature end of Content-Length delimited message body: "
                        + left + " bytes missing");
            }
            left -= n;
            return n;
        }

        @Override
        int available() {
            return (int) Math.min(left, in.buffered());
        }

        @Override
        boolean stopsHere() {
            return left == 0;
        }

        @Override
        boolean ended() {
            return left == 0;
        }
    }

    private static final class Chunked extends Framed {
        private final ChunkedBody body;

        Chunked(ReadBuffer in) {
            this.body = new ChunkedBody(in);
        }

        @Override
        int read(byte[] into, int offset, int length) throws IOException {
            return body.read(into, offset, length);
        }

        @Override
        int available() {
            return body.available();
        }

        @Override
        boolean stopsHere() {
            return body.stopsAtBoundary();
        }

        @Override
        boolean ended() {
            return body.ended();
        }
    }

    /** No length given: the body is whatever comes until the upstream closes the connection. */
    private static final class UntilClose extends Framed {
        private final ReadBuffer in;
        private boolean ended;

        UntilClose(ReadBuffer in) {
            this.in = in;
        }

        @Override
        int read(byte[] into, int offset, int length) throws IOException {
            int n = in.read(into, offset, length);
            ended = n < 0;
            return n;
        }

        @Override
        int available() {
            return in.buffered();
        }

        @Override
        boolean stopsHere() {
            return ended;
        }

        @Override
        boolean ended() {
            return ended;
        }
    }
}
