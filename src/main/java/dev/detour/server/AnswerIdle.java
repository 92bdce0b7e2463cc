package dev.detour.server;

import java.time.Duration;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;

/**
 * a connection gets the short client timeout while its request arrives; once a request is
 * authenticated and its body read, its answer may take as long as before (a stream whose client
 * reads slowly, a long upstream wait), so the connection's idle timeout is raised for that answer
 * and restored when the request completes.
 */
public final class AnswerIdle {
    /** The idle timeout every connection had before X-4 (a streamed answer's slow reader is not cut). */
    public static final Duration ANSWER = Duration.ofSeconds(300);

    private AnswerIdle() {
    }

    /** Raises this request's connection idle timeout to {@link #ANSWER} until the request completes. */
    public static void extend(Request request) {
        EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
        long before = endPoint.getIdleTimeout();
        long answer = ANSWER.toMillis();
        if (before <= 0 || before >= answer) {
            return; // trusted proxies' connections already have it
        }
        endPoint.setIdleTimeout(answer);
        Request.addCompletionListener(request, failure -> endPoint.setIdleTimeout(before));
    }
}
