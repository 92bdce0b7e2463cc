package dev.detour.adapter.proxy;

import dev.detour.adapter.security.AuthThrottle;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.security.FailureDelays;
import dev.detour.core.selection.SessionIds;
import dev.detour.gateway.Forwarder;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.port.RequestPeek;
import dev.detour.gateway.port.ResponseSink;
import dev.detour.gateway.wire.RequestIds;
import dev.detour.server.MinimumBodyRate;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.BadMessageException;

/**
 * The relay's door: for every path under {@code /v1} but the key holders' own {@code /v1/detour}, it names the
 * endpoint, refuses what it must (unknown endpoint, draining, throttled address, wrong key, a body too large,
 * too slow or not JSON), reads the body once (32 MiB cap, within the X-4 {@link BodyBudget}), peeks model and
 * stream, and hands over to the {@link Forwarder}. Every refusal is an event. Whichever server read the request
 * ({@link RelayExchange}) asks the same questions in the same order.
 */
public final class Relay {
    static final int MAX_BODY = 32 * 1024 * 1024;
    /** The header every relayed answer carries: the request id its event is stored under. */
    public static final String REQUEST_ID_HEADER = "x-detour-request-id";

    private final Forwarder forwarder;
    private final Clock clock;
    private final AuthThrottle keyFailures;
    private final BodyBudget bodies;

    public Relay(Forwarder forwarder, Clock clock, AuthThrottle keyFailures, BodyBudget bodies) {
        this.forwarder = forwarder;
        this.clock = clock;
        this.keyFailures = keyFailures;
        this.bodies = bodies;
    }

    /** {@code /v1} and everything under it, but {@code /v1/detour} and what is under that (a servlet's). */
    static boolean relays(String path) {
        if (path == null || !path.startsWith("/v1") || (path.length() > 3 && path.charAt(3) != '/')) {
            return false;
        }
        return !(path.startsWith("/v1/detour") && (path.length() == 10 || path.charAt(10) == '/'));
    }

    void serve(RelayExchange exchange) {
        long startNanos = System.nanoTime();
        String requestId = RequestIds.next(clock);
        exchange.answerHeader(REQUEST_ID_HEADER, requestId);
        String path = exchange.path();
        EndpointFamily family = familyOf(path);
        String method = exchange.method();
        String ip = exchange.clientIp();
        ResponseSink sink = exchange.sink();
        if (family == null || !method.equals(family == EndpointFamily.MODELS ? "GET" : "POST")) {
            exchange.discardUnreadBodyOrClose();
            forwarder.reject(requestId, family, path, ip, startNanos, 404, "request.unknown_endpoint",
                    "no such endpoint: " + method + " " + path, 0, sink);
            return;
        }
        String presented = presentedKey(exchange);
        if (exchange.draining()) {
            // D-3: arrived on a kept-alive connection while Detour stops; named by its key when it has one
            KeyEntry key = forwarder.authenticate(presented);
            String why = "Detour is shutting down; retry in a moment (the connection is closed)";
            if (key == null) {
                forwarder.reject(requestId, family, path, ip, startNanos, 503, Forwarder.SHUTTING_DOWN, why, 1, sink);
            } else {
                forwarder.rejectForKey(requestId, family, key, ip, startNanos, 503, Forwarder.SHUTTING_DOWN, why, 1,
                        sink);
            }
            return;
        }
        // an address whose recent key guesses failed waits, answered before the lookup (no oracle);
        // an address with no failures costs one map lookup here
        Duration wait = keyFailures.waitForCredential(ip, presented);
        if (!wait.isZero()) {
            long seconds = FailureDelays.retryAfterSeconds(wait);
            exchange.discardUnreadBodyOrClose();
            forwarder.reject(requestId, family, path, ip, startNanos, 429, "auth.throttled",
                    "too many failed key checks from this address; retry after " + seconds + " s", seconds, sink);
            return;
        }
        KeyEntry key = forwarder.authenticate(presented);
        if (key == null) {
            if (presented != null && !presented.isEmpty()) {
                keyFailures.failedCredential(ip, presented); // a missing key is no guess
            }
            exchange.discardUnreadBodyOrClose();
            forwarder.reject(requestId, family, path, ip, startNanos, 401, "auth.invalid_key",
                    "missing, unknown, disabled or expired Detour key", 0, sink);
            return;
        }
        // the body's buffers stay reserved in the budget until the answer is done (or failed)
        try (BodyBudget.Hold hold = bodies.hold()) {
            byte[] bytes;
            try {
                bytes = readBody(exchange, hold);
            } catch (RefusedBody refused) {
                exchange.discardUnreadBodyOrClose();
                forwarder.rejectForKey(requestId, family, key, ip, startNanos, refused.status, refused.code,
                        refused.getMessage(), refused.retryAfterSeconds, sink);
                return;
            }
            RequestPeek peek;
            try {
                peek = family == EndpointFamily.MODELS ? RequestPeek.EMPTY : JsonPeeker.peek(bytes);
                // S-6 / P-12: an agent's session header names the conversation before any body field
                peek = peek.withSessionId(SessionIds.resolve(exchange::header, peek.sessionId()));
            } catch (InvalidJsonException e) {
                forwarder.rejectForKey(requestId, family, key, ip, startNanos, 400, "request.invalid_json",
                        e.getMessage(), 0, sink);
                return;
            }
            exchange.admitted();
            if (peek.stream()) {
                exchange.asksForStream(); // N-7: routed and waiting for its first frame as it will be relayed
            }
            String query = exchange.query();
            ClientCall call = new ClientCall(requestId, family, method, query == null ? path : path + "?" + query,
                    exchange.headers(), bytes, peek, key, ip, clock.instant(), startNanos);
            forwarder.forward(call, sink);
        }
    }

    private static byte[] readBody(RelayExchange exchange, BodyBudget.Hold hold) throws RefusedBody {
        try {
            return RequestBodyReader.read(exchange.body(), exchange.contentLength(), MAX_BODY, hold);
        } catch (RequestBodyReader.TooLargeException e) {
            throw new RefusedBody(413, "request.too_large", "request body exceeds " + MAX_BODY + " bytes", 0);
        } catch (RequestBodyReader.BudgetExhaustedException e) {
            throw new RefusedBody(503, "gateway.body_budget_exhausted",
                    "too many request bodies in memory right now; retry shortly", 1);
        } catch (MinimumBodyRate.TooSlowException | SocketTimeoutException e) {
            // a body trickled in below the minimum rate, or stalled longer than the client timeout (front)
            throw tooSlow();
        } catch (BadMessageException e) {
            // Jetty's own 408 (its idle timeout while the body arrives), or a body it could not parse
            throw e.getCode() == 408 ? tooSlow()
                    : new RefusedBody(400, "request.body_unreadable", "the request body could not be read", 0);
        } catch (IOException e) {
            if (e.getCause() instanceof TimeoutException) {
                throw tooSlow(); // the body stalled for longer than the client timeout (Jetty)
            }
            // N-4: a client that vanished while sending its body still leaves one event
            throw new RefusedBody(400, "request.body_unreadable", "the request body could not be read", 0);
        }
    }

    private static RefusedBody tooSlow() {
        return new RefusedBody(408, "request.too_slow", "the request body arrived too slowly", 0);
    }

    /** The endpoint family of a path; {@code /v1/models/{id}} (P-12; an id may hold '/') is the models family. */
    static EndpointFamily familyOf(String path) {
        EndpointFamily family = EndpointFamily.forPath(path);
        String models = EndpointFamily.MODELS.path() + "/";
        return family == null && path.startsWith(models) && path.length() > models.length() ? EndpointFamily.MODELS
                : family;
    }

    /** {@code Authorization: Bearer <key>} or {@code x-api-key: <key>} (P-1). */
    static String presentedKey(RelayExchange exchange) {
        String auth = exchange.header("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return auth.substring(7).trim();
        }
        String apiKey = exchange.header("x-api-key");
        return apiKey == null ? null : apiKey.trim();
    }

    /** Why a body was not taken: the answer's status, stable code and message (Retry-After when > 0). */
    private static final class RefusedBody extends Exception {
        final int status;
        final String code;
        final long retryAfterSeconds;

        RefusedBody(int status, String code, String message, long retryAfterSeconds) {
            super(message, null, false, false);
            this.status = status;
            this.code = code;
            this.retryAfterSeconds = retryAfterSeconds;
        }
    }
}
