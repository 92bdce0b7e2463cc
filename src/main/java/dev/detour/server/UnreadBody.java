package dev.detour.server;

import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

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
        if (response.isCommitted() || discarded(request)) {
            return;
        }
        response.setHeader("Connection", "close");
    }

    private static boolean discarded(HttpServletRequest request) {
        long declared = request.getContentLengthLong();
        if (declared > DISCARD_MAX || request.getHeader("Expect") != null) {
            return false; // too big to read for nothing, or its client waits to be asked for it
        }
        try {
            ServletInputStream in = request.getInputStream();
            byte[] scratch = new byte[declared >= 0 ? (int) Math.max(1, declared) : 8 * 1024];
            long read = 0;
            for (int n; (n = in.read(scratch)) >= 0; ) {
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
