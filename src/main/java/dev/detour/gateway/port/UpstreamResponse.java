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

    /** Release: reuse the connection if the body was fully read, else abort. */
    @Override
    void close();
}
