package dev.detour.adapter.proxy;

import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.ResponseSink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * {@link ResponseSink} over Jetty's core response; IO errors on write mean the client went away. Writes
 * gather in one array until a flush, so frames that arrived together leave in one write (N-7), and each
 * write blocks until Jetty has taken the bytes, so the array is reused at once. The handler's callback is
 * completed here: failed by {@link #abort()}, otherwise by {@link #complete()}.
 */
final class JettyResponseSink implements ResponseSink {
    /** What may gather before a flush: an answer read faster than it can be written leaves in pieces this big. */
    static final int MAX_PENDING = 32 * 1024;

    private final Request request;
    private final Response response;
    private final Callback callback;
    /** One blocker for every write of this answer (a new one per write was most of a frame's garbage). */
    private final Blocker.Shared blocker = new Blocker.Shared();
    private byte[] pending = new byte[0];
    private ByteBuffer pendingBuffer = ByteBuffer.wrap(pending);
    private int pendingLength;
    private boolean begun;
    private boolean completed;
    private ClientGoneWatch watch;

    JettyResponseSink(Request request, Response response, Callback callback) {
        this.request = request;
        this.response = response;
        this.callback = callback;
    }

    /** L-2: see {@link ClientGoneWatch}; a connection Detour cannot watch is never reported gone. */
    @Override
    public Runnable watchGone(Runnable action) {
        watch = ClientGoneWatch.start(request.getConnectionMetaData().getConnection().getEndPoint(), action);
        return watch::stop;
    }

    @Override
    public void begin(int status, List<Header> headers) {
        response.setStatus(status);
        if (watch != null && watch.consumedBytes()) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        for (Header h : headers) {
            response.getHeaders().add(h.name(), h.value());
        }
        begun = true;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws ClientGoneException {
        if (!begun || completed) {
            throw new ClientGoneException(new IOException("no answer to write to"));
        }
        if (pendingLength + length > MAX_PENDING) {
            flushPending(false);
            if (length > MAX_PENDING) {
                send(false, ByteBuffer.wrap(bytes, offset, length)); // sent before the caller reuses its array
                return;
            }
        }
        if (pendingLength + length > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pendingLength + length, Math.max(1024, pending.length * 2)));
            pendingBuffer = ByteBuffer.wrap(pending);
        }
        System.arraycopy(bytes, offset, pending, pendingLength, length);
        pendingLength += length;
    }

    /** Content-Length set first: Jetty then sends head and body together and the answer is complete. */
    @Override
    public void writeWhole(byte[] body) throws ClientGoneException {
        if (!begun || completed) {
            throw new ClientGoneException(new IOException("no answer to write to"));
        }
        flushPending(false);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        send(true, ByteBuffer.wrap(body));
    }

    /** Sends what was written; the first flush commits the head even with nothing written yet. */
    @Override
    public void flush() throws ClientGoneException {
        if (!begun || completed) {
            return;
        }
        if (pendingLength > 0 || !response.isCommitted()) {
            flushPending(true);
        }
    }

    private void flushPending(boolean evenEmpty) throws ClientGoneException {
        if (pendingLength == 0 && !evenEmpty) {
            return;
        }
        ByteBuffer bytes = pendingLength == 0 ? BufferUtil.EMPTY_BUFFER : pendingBuffer.limit(pendingLength).position(0);
        pendingLength = 0;
        send(false, bytes);
    }

    private void send(boolean last, ByteBuffer bytes) throws ClientGoneException {
        try (Blocker.Callback written = blocker.callback()) {
            response.write(last, bytes, written);
            written.block();
        } catch (IOException e) {
            throw new ClientGoneException(e);
        }
    }

    /**
     * F-4': failing the handler's callback on a committed answer drops the connection; the terminating
     * {@code 0\r\n\r\n} chunk is never sent (StreamBreakIT reads the raw bytes).
     */
    @Override
    public void abort() {
        if (!completed) {
            completed = true;
            pendingLength = 0;
            callback.failed(new EofException("upstream stream broke; client stream aborted"));
        }
    }

    @Override
    public boolean committed() {
        return begun;
    }

    /** The request is done: what is still pending leaves with the answer's end. */
    void complete() {
        if (completed) {
            return;
        }
        completed = true;
        if (pendingLength == 0) {
            callback.succeeded();
            return;
        }
        ByteBuffer rest = pendingBuffer.limit(pendingLength).position(0);
        pendingLength = 0;
        response.write(true, rest, callback);
    }
}
