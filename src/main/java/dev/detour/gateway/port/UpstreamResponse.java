package dev.detour.gateway.port;

import java.io.Closeable;
import java.io.InputStream;
import java.util.List;

/**
 * An upstream answer whose status line and headers have arrived; the body is still on the
 * wire. Always close it: a fully read body returns the connection to the pool, anything else
 * drops it (a half-read connection can never be reused).
 */
public interface UpstreamResponse extends Closeable {
    int status();

    /** As received, hop-by-hop ones removed. */
    List<Header> headers();

    /** First value, case-insensitive, or null. */
    String header(String name);

    /** The live body stream (no buffering); read errors throw {@link UpstreamTransportException}. */
    InputStream body();

    /** Drop the connection now (client cancel, truncation); idempotent, callable from any thread. */
    void abort();

    /**
     * N-7: waits for the body's next bytes on a shared thread instead of the caller's. {@code arrivals} runs on that
     * thread each time bytes came, and reads only what the body's {@link InputStream#available} says is there, until
     * it returns false, the client did not keep up, or the body cannot go on without a blocking read (its end, a
     * failure, a framing line cut in two); then this returns on the caller's thread, both sockets blocking again,
     * and the rest of the body is read as before.
     *
     * @return false when the body is not waited for that way (nothing happened: the caller reads it itself)
     */
    default boolean pump(NonBlockingClient client, Arrivals arrivals) {
        return false;
    }

    /** Release: reuse the connection if the body was fully read, else abort. */
    @Override
    void close();

    /** What a pumped stream does with the bytes that arrived, on the pump's thread. */
    interface Arrivals {
        /** @return true to wait for more bytes, false to give the stream back to its own thread */
        boolean arrived();
    }
}
