package dev.detour.adapter.upstream;

import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.core.secret.SecretMask;
import dev.detour.gateway.port.UpstreamTransportException;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Collection;
import javax.net.ssl.SSLException;

/**
 * Turns whatever the upstream client threw into the transport fact the classifier reads (P-4). Timeout
 * messages name the ceiling and its value; every message is scrubbed of the request's secrets.
 */
final class TransportErrorMapper {
    private static final int MAX_CAUSE_DEPTH = 8;

    private final String connectTimeoutMessage;
    private final String readTimeoutMessage;

    TransportErrorMapper(Duration connectTimeout, Duration readTimeout) {
        this.connectTimeoutMessage = "connect timeout: no connection within " + human(connectTimeout);
        this.readTimeoutMessage = "read timeout: no data from upstream for " + human(readTimeout)
                + " (read timeout " + human(readTimeout) + ")";
    }

    /** Maps {@code failure}; {@code secrets} are strings that must never appear in the message. */
    UpstreamTransportException toException(Throwable failure, Collection<String> secrets) {
        if (failure instanceof UpstreamTransportException already) {
            return already;
        }
        return new UpstreamTransportException(toError(failure, secrets), failure);
    }

    TransportError toError(Throwable failure, Collection<String> secrets) {
        Throwable current = failure;
        for (int depth = 0; current != null && depth < MAX_CAUSE_DEPTH; depth++) {
            TransportError error = classify(current, secrets);
            if (error != null) {
                return error;
            }
            current = current.getCause();
        }
        return new TransportError(TransportErrorType.OTHER, "transport error: " + detail(failure, secrets));
    }

    /** The outermost recognised exception decides, except a TLS wrapper around a known cause. */
    private TransportError classify(Throwable t, Collection<String> secrets) {
        if (t instanceof Http1Failure.ConnectTimedOut) {
            return new TransportError(TransportErrorType.CONNECT_TIMEOUT, connectTimeoutMessage);
        }
        if (t instanceof Http1Failure.PoolExhausted) {
            // A local pool shortage, not the upstream's fault; the limits are sized so this is rare.
            return new TransportError(TransportErrorType.OTHER, "connection pool exhausted: " + detail(t, secrets));
        }
        if (t instanceof SocketTimeoutException) {
            return new TransportError(TransportErrorType.READ_TIMEOUT, readTimeoutMessage);
        }
        if (t instanceof UnknownHostException) {
            return new TransportError(TransportErrorType.UNKNOWN_HOST, "unknown host: " + detail(t, secrets));
        }
        if (t instanceof ConnectException || t instanceof NoRouteToHostException) {
            return new TransportError(TransportErrorType.CONNECT_REFUSED, "connection refused: " + rootDetail(t, secrets));
        }
        if (t instanceof SSLException) {
            TransportError inner = t.getCause() == null ? null : classify(t.getCause(), secrets);
            return inner != null ? inner : new TransportError(TransportErrorType.TLS, "tls error: " + detail(t, secrets));
        }
        if (isReset(t)) {
            return new TransportError(TransportErrorType.CONNECTION_RESET, "connection reset: " + detail(t, secrets));
        }
        if (t instanceof EOFException || t instanceof Http1Failure.NoAnswer || t instanceof Http1Failure.BadChunk) {
            return new TransportError(TransportErrorType.CLOSED_EARLY,
                    "upstream closed the connection early: " + detail(t, secrets));
        }
        return null;
    }

    /** The upstream closed the connection before any byte of an answer: end of stream at the status line, a reset. */
    static boolean noAnswer(Throwable t) {
        return t instanceof Http1Failure.NoAnswer || isReset(t);
    }

    /** A reset or a broken pipe: a socket reports it as a SocketException, a socket channel as an IOException. */
    private static boolean isReset(Throwable t) {
        String message = t.getMessage();
        return (t instanceof SocketException || t.getClass() == IOException.class) && message != null
                && (message.contains("reset") || message.contains("Broken pipe"));
    }

    private static String rootDetail(Throwable t, Collection<String> secrets) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return detail(root, secrets);
    }

    private static String detail(Throwable t, Collection<String> secrets) {
        String message = t.getMessage();
        if (message == null || message.isBlank()) {
            return t.getClass().getSimpleName();
        }
        return SecretMask.knowing(secrets).apply(message); // the one masking format, sk-…abcd
    }

    static String human(Duration d) {
        long millis = d.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
