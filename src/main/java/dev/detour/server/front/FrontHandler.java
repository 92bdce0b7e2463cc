package dev.detour.server.front;

/** What the front serves itself: the relay's paths (everything else goes to Jetty with the connection). */
public interface FrontHandler {
    /** Whether this handler serves {@code path}; if not, the connection is handed to Jetty with the request. */
    boolean serves(String path);

    /**
     * Serves one request on the calling thread: reads (some of) its body and writes its whole answer through the
     * exchange's sink before returning.
     */
    void serve(FrontExchange exchange);
}
