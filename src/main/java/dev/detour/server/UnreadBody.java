package dev.detour.server;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * A request answered without reading its body (a wrong key, a throttled address, an unknown endpoint, a
 * body refused part-way) must leave its connection either clean or visibly closing. Jetty ends the
 * connection after an answer whose request body had not all arrived, but an answer already committed can
 * no longer say {@code Connection: close}: the client keeps the connection, sends its next request on it
 * and reads nothing back ("header parser received no bytes" in Java's HttpClient; an SDK's retry on a
 * dead socket). So, before such an answer is written, a small body is read to its end and dropped (as
 * nginx discards one), and anything else is answered with {@code Connection: close}.
 */
public final class UnreadBody {
    /** The most Detour reads only to drop it: a chat request's size; a larger body costs a reconnect instead. */
    static final int DISCARD_MAX = 64 * 1024;

    private UnreadBody() {
    }

    /** Call before writing an answer that did not read (all of) the request's body. */
    public static void discardOrClose(HttpServletRequest request, HttpServletResponse response) {
        if (response.isCommitted()) {
            return;
        }
        try {
            if (discarded(request.getContentLengthLong(), request.getHeader("Expect") != null,
                    request.getInputStream())) {
                return;
            }
        } catch (IOException | RuntimeException e) {
            // no body stream to read: close the connection
        }
        response.setHeader("Connection", "close");
    }

    /**
     * The same for the relay's core request.
     *
     * @param body the request's body stream, the one any part of it was already read from
     */
    public static void discardOrClose(Request request, Response response, InputStream body) {
        if (response.isCommitted()
                || discarded(request.getLength(), request.getHeaders().contains(HttpHeader.EXPECT), body)) {
            return;
        }
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    }

    /**
     * The same for the front, which reads no request with {@code Expect}: true when the rest of the body (at most
     * {@value #DISCARD_MAX} bytes of it) was read and dropped, false when its connection must close instead.
     */
    public static boolean discarded(long unread, InputStream body) {
        return discarded(unread, false, body);
    }

    private static boolean discarded(long declared, boolean expectsToBeAsked, InputStream body) {
        if (declared > DISCARD_MAX || expectsToBeAsked) {
            return false; // too big to read for nothing, or its client waits to be asked for it
        }
        try {
            byte[] scratch = new byte[declared >= 0 ? (int) Math.max(1, declared) : 8 * 1024];
            long read = 0;
            for (int n; (n = body.read(scratch)) >= 0; ) {
                read += n;
                if (read > DISCARD_MAX) {
                    return false; // chunked and long
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false; // too slow, cut off, or already read part-way and failed: close it
        }
    }
}
