package dev.detour.gateway.port;

import java.util.List;

/**
 * The client side of a proxied exchange, as the Forwarder needs it. A write to a client that has
 * gone away throws {@link ClientGoneException}: the request is then cancelled, never charged to
 * the account (P-7).
 */
public interface ResponseSink {
    void begin(int status, List<Header> headers);

    void write(byte[] bytes, int offset, int length) throws ClientGoneException;

    void flush() throws ClientGoneException;

    /**
     * Writes a whole answer after {@link #begin}: its length is known, so a sink may send it with a
     * Content-Length in one write instead of as chunks.
     */
    default void writeWhole(byte[] body) throws ClientGoneException {
        write(body, 0, body.length);
        flush();
    }

    /**
     * F-4': ends a committed answer as a broken transfer — the connection is dropped without the
     * chunked body's terminating chunk, so the client's HTTP layer reports a failure instead of a
     * complete body. Nothing may be written afterwards.
     */
    void abort();

    /**
     * L-2: runs {@code action} (once) if the client is seen to go away while nothing is read or written,
     * so a waiting request leaves the queue at once; a sink that cannot tell never runs it.
     *
     * @return stops the watch: called when the wait ends, before the answer begins
     */
    default Runnable watchGone(Runnable action) {
        return () -> {
        };
    }

    /** N-7: this client's socket as a pumped stream writes it ({@link UpstreamResponse#pump}); null: it cannot be. */
    default NonBlockingClient nonBlocking() {
        return null;
    }

    /** True once {@link #begin} was called: nothing can be switched any more. */
    boolean committed();

    final class ClientGoneException extends Exception {
        public ClientGoneException(Throwable cause) {
            super("client disconnected", cause);
        }
    }
}
