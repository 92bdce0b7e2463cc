package dev.detour.adapter.proxy;

import dev.detour.adapter.security.AuthThrottle;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.security.FailureDelays;
import dev.detour.gateway.ClientCall;
import dev.detour.gateway.Forwarder;
import dev.detour.gateway.Header;
import dev.detour.gateway.RequestIds;
import dev.detour.gateway.RequestPeek;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;

/**
 * Servlet ↔ {@link ClientCall}: reads the body once (32 MiB cap), peeks model/stream, and hands
 * over to the {@link Forwarder}. No policy lives here.
 */
public final class ProxyServlet extends HttpServlet {
    public static final int MAX_BODY = 32 * 1024 * 1024;
    public static final String REQUEST_ID_HEADER = "x-detour-request-id";

    private final Forwarder forwarder;
    private final Clock clock;
    private final ClientAddress clientAddress;
    private final AuthThrottle keyFailures;

    public ProxyServlet(Forwarder forwarder, Clock clock, ClientAddress clientAddress, AuthThrottle keyFailures) {
        this.forwarder = forwarder;
        this.clock = clock;
        this.clientAddress = clientAddress;
        this.keyFailures = keyFailures;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        long startNanos = System.nanoTime();
        String requestId = RequestIds.next(clock);
        response.setHeader(REQUEST_ID_HEADER, requestId);
        String path = request.getRequestURI();
        EndpointFamily family = EndpointFamily.forPath(path);
        String method = request.getMethod();
        String ip = clientAddress.of(request);
        ServletResponseSink sink = new ServletResponseSink(response);
        if (family == null || !method.equals(family == EndpointFamily.MODELS ? "GET" : "POST")) {
            forwarder.reject(requestId, family, path, ip, startNanos, 404, "request.unknown_endpoint",
                    "no such endpoint: " + method + " " + path, sink);
            return;
        }
        String presented = presentedKey(request);
        // an address whose recent key guesses failed waits, answered before the lookup (no oracle);
        // an address with no failures costs one map lookup here
        Duration wait = presented == null ? keyFailures.waitFor(ip) : keyFailures.waitForCredential(ip, presented);
        if (!wait.isZero()) {
            long seconds = FailureDelays.retryAfterSeconds(wait);
            forwarder.reject(requestId, family, path, ip, startNanos, 429, "auth.throttled",
                    "too many failed key checks from this address; retry after " + seconds + " s", seconds, sink);
            return;
        }
        var key = forwarder.authenticate(presented);
        if (key == null) {
            if (presented != null && !presented.isEmpty()) {
                keyFailures.failedCredential(ip, presented); // a missing key is no guess
            }
            forwarder.reject(requestId, family, path, ip, startNanos, 401, "auth.invalid_key",
                    "missing, unknown, disabled or expired Detour key", sink);
            return;
        }
        byte[] body;
        try {
            body = readBody(request);
        } catch (TooLargeException e) {
            forwarder.rejectForKey(requestId, family, key, ip, startNanos, 413, "request.too_large",
                    "request body exceeds " + MAX_BODY + " bytes", sink);
            return;
        } catch (IOException e) {
            // N-4: a client that vanished while sending its body still leaves one event
            forwarder.rejectForKey(requestId, family, key, ip, startNanos, 400, "request.body_unreadable",
                    "the request body could not be read", sink);
            return;
        }
        RequestPeek peek;
        try {
            peek = family == EndpointFamily.MODELS ? RequestPeek.EMPTY : JsonPeeker.peek(body);
        } catch (InvalidJsonException e) {
            forwarder.rejectForKey(requestId, family, key, ip, startNanos, 400, "request.invalid_json",
                    e.getMessage(), sink);
            return;
        }
        String query = request.getQueryString();
        ClientCall call = new ClientCall(requestId, family, method, query == null ? path : path + "?" + query,
                headers(request), body, peek, key, ip, clock.instant(), startNanos);
        forwarder.forward(call, sink);
    }

    /** {@code Authorization: Bearer <key>} or {@code x-api-key: <key>} (P-1). */
    static String presentedKey(HttpServletRequest request) {
        String auth = request.getHeader("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return auth.substring(7).trim();
        }
        String apiKey = request.getHeader("x-api-key");
        return apiKey == null ? null : apiKey.trim();
    }

    private static byte[] readBody(HttpServletRequest request) throws IOException, TooLargeException {
        long declared = request.getContentLengthLong();
        if (declared > MAX_BODY) {
            throw new TooLargeException();
        }
        byte[] buffer = new byte[declared > 0 ? (int) declared : 8192];
        int size = 0;
        try (InputStream in = request.getInputStream()) {
            int n;
            while ((n = in.read(buffer, size, buffer.length - size)) > 0) {
                size += n;
                if (size == buffer.length) {
                    if (size >= MAX_BODY + 1) {
                        throw new TooLargeException();
                    }
                    int probe = in.read();
                    if (probe < 0) {
                        break;
                    }
                    buffer = Arrays.copyOf(buffer, Math.min(MAX_BODY + 1, Math.max(buffer.length * 2, 8192)));
                    buffer[size++] = (byte) probe;
                }
            }
        }
        if (size > MAX_BODY) {
            throw new TooLargeException();
        }
        return size == buffer.length ? buffer : Arrays.copyOf(buffer, size);
    }

    private static List<Header> headers(HttpServletRequest request) {
        List<Header> headers = new ArrayList<>();
        Enumeration<String> names = request.getHeaderNames();
        while (names.hasMoreElements()) {
            String name = names.nextElement();
            Enumeration<String> values = request.getHeaders(name);
            while (values.hasMoreElements()) {
                headers.add(new Header(name, values.nextElement()));
            }
        }
        return headers;
    }

    private static final class TooLargeException extends Exception {
        TooLargeException() {
            super(null, null, false, false);
        }
    }
}
