package dev.detour.gateway.port;

/**
 * The port the Forwarder sends attempts through. One long-lived, pooled instance per process;
 * every transport problem surfaces as {@link UpstreamTransportException} carrying a
 * {@link dev.detour.core.failure.TransportError} (P-4: timeouts name their ceiling).
 */
public interface UpstreamClient extends AutoCloseable {
    /** Sends; returns once status line + headers arrived. Body is read by the caller via the response. */
    UpstreamResponse send(UpstreamRequest request) throws UpstreamTransportException;

    /**
     * D-3: true once Detour's own shutdown closed the client, cutting the exchanges still open at the end
     * of the grace: a failure from then on is Detour's doing, not the account's.
     */
    default boolean closed() {
        return false;
    }
}
