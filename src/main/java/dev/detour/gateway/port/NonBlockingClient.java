package dev.detour.gateway.port;

import java.io.IOException;

/**
 * N-7: a client's socket written without blocking while a shared thread relays a stream to it
 * ({@link UpstreamResponse#pump}): a write then takes what the socket takes at once and keeps back the rest, so a
 * client slow to read never holds that thread up; the stream goes back to its own thread instead, which writes what
 * was kept back, blocking, as every other write.
 */
public interface NonBlockingClient {
    /** From now on writes do not wait for the client. */
    void start() throws IOException;

    /** Nothing was kept back: every byte written so far is in the socket. */
    boolean keptUp();

    /**
     * Blocking again, what was kept back written first; a client gone meanwhile is the next write's
     * {@link ResponseSink.ClientGoneException}.
     */
    void stop();
}
