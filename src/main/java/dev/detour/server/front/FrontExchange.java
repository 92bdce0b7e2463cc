package dev.detour.server.front;

import dev.detour.gateway.port.ResponseSink;
import dev.detour.server.UnreadBody;
import java.io.InputStream;

/** One request the front serves: its head, its body, its answer, and what the connection knows of it. */
public final class FrontExchange {
    private final RequestHead head;
    private final String peer;
    private final BoundedBody body;
    private final SocketResponseSink sink;
    private final FrontConnection connection;

    FrontExchange(RequestHead head, String peer, BoundedBody body, SocketResponseSink sink,
            FrontConnection connection) {
        this.head = head;
        this.peer = peer;
        this.body = body;
        this.sink = sink;
        this.connection = connection;
    }

    public RequestHead head() {
        return head;
    }

    /** The TCP peer's address, as Jetty writes it ({@code 127.0.0.1}, {@code [::1]}). */
    public String peer() {
        return peer;
    }

    /** The body: exactly Content-Length bytes. */
    public InputStream body() {
        return body;
    }

    public ResponseSink sink() {
        return sink;
    }

    /** D-3: the front stopped accepting; this request is refused, and its connection closed after the answer. */
    public boolean draining() {
        return connection.draining();
    }

    /** A header the answer carries first (set before it begins). */
    public void answerHeader(String name, String value) {
        sink.preset(name, value);
    }

    /** Before an answer that did not read the whole body: reads a small rest, or closes the connection after. */
    public void discardUnreadBodyOrClose() {
        if (body.remaining() > 0 && !UnreadBody.discarded(body.remaining(), body)) {
            sink.closeAfter();
        }
    }

    /** authenticated with its body read: its answer may be as slow to read as an answer always could. */
    public void admitted() {
        connection.admitted();
    }

    /** N-7: admitted and asking for a stream: relayed from here on as its answer will be, as it comes. */
    public void asksForStream() {
        connection.relayingAsItComes();
    }
}
