package dev.detour.adapter.proxy;

import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.ResponseSink;
import java.io.InputStream;
import java.util.List;

/**
 * One relayed request as the {@link Relay}'s door policy needs it, whichever server read it: Jetty
 * ({@link ProxyHandler}) or the front ({@link RelayOnFront}).
 */
interface RelayExchange {
    String method();

    /** The path as routed (the subset both servers accept has no escapes in it). */
    String path();

    /** The raw query, or null. */
    String query();

    /** The first value of a header (name in any case), or null. */
    String header(String name);

    /** Every header field in arrival order. */
    List<Header> headers();

    /** The declared body length, or -1 when the body is chunked. */
    long contentLength();

    /** The client's address: the peer, or X-Forwarded-For when the peer is a trusted proxy (O-3). */
    String clientIp();

    /** D-3: the request arrived on a kept-alive connection after the drain began. */
    boolean draining();

    /** The request body, read at most once, by this request's thread. */
    InputStream body();

    /** A header every answer to this request carries (the request id), set before the answer begins. */
    void answerHeader(String name, String value);

    /** Before an answer that did not read the whole body: reads a small rest or has the connection closed. */
    void discardUnreadBodyOrClose();

    /** authenticated and its body read: its answer may be as slow to read as before X-4 ({@code AnswerIdle}). */
    void admitted();

    /**
     * N-7: admitted and asking for a stream: its answer will be relayed as it comes, so the exchange may ready its
     * thread for that before routing: both servers raise a lowered platform thread to normal priority until the
     * request ends (a virtual thread has no priority to raise).
     */
    void asksForStream();

    /** Where the answer goes. */
    ResponseSink sink();
}
