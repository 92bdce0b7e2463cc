package dev.detour.core.failure;

import dev.detour.core.secret.SecretMask;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What one upstream attempt produced, as plain facts for {@link FailureClassifier}.
 *
 * @param status     the HTTP status, or null when none arrived (then {@code transport} says why)
 * @param headers    response headers with lower-case names (never null)
 * @param body       the response text, possibly only a prefix of a huge body (never null)
 * @param sse        the body is an SSE stream
 * @param truncated  the stream carried data frames but no terminal marker ({@link StreamTerminalScanner})
 * @param transport  the transport error when no status arrived, else null
 * @param modelTest  a model connectivity test (kinds model_test / model_test_status)
 * @param modelKey   the model key charged, or null (then every failure is account-scoped, F-3)
 * @param mask       X-5: masks the request's secrets and token shapes out of the message and body a
 *                   failure keeps (stored, shown, logged); token shapes only unless {@link #maskingWith}
 */
public record AttemptFacts(
        Integer status,
        Map<String, String> headers,
        String body,
        boolean sse,
        boolean truncated,
        TransportError transport,
        boolean modelTest,
        String modelKey,
        SecretMask mask) {

    public AttemptFacts {
        headers = lowerCaseNames(headers);
        body = body == null ? "" : body;
        mask = mask == null ? SecretMask.SHAPES : mask;
    }

    public AttemptFacts(Integer status, Map<String, String> headers, String body, boolean sse, boolean truncated,
            TransportError transport, boolean modelTest, String modelKey) {
        this(status, headers, body, sse, truncated, transport, modelTest, modelKey, SecretMask.SHAPES);
    }

    /** A buffered (non-SSE) answer with a status. */
    public static AttemptFacts response(int status, Map<String, String> headers, String body) {
        return new AttemptFacts(status, headers, body, false, false, null, false, null);
    }

    /**
     * A whole SSE body read on the buffered path; truncation is judged here with the same scanner the
     * streaming path uses, so both paths reach the same verdict. Pass the whole body.
     */
    public static AttemptFacts streamed(int status, Map<String, String> headers, String wholeBody) {
        StreamTerminalScanner scanner = new StreamTerminalScanner();
        scanner.feed(wholeBody == null ? "" : wholeBody);
        return new AttemptFacts(status, headers, wholeBody, true, scanner.truncated(), null, false, null);
    }

    /** An SSE stream judged by what has arrived so far (streaming passthrough, before the first relay). */
    public static AttemptFacts streamStart(int status, Map<String, String> headers, String textSoFar) {
        return new AttemptFacts(status, headers, textSoFar, true, false, null, false, null);
    }

    /** No status arrived: connect, DNS, TLS, timeout, reset. */
    public static AttemptFacts transport(TransportError error) {
        return new AttemptFacts(null, Map.of(), "", false, false, error, false, null);
    }

    public AttemptFacts forModel(String key) {
        return new AttemptFacts(status, headers, body, sse, truncated, transport, modelTest, key, mask);
    }

    public AttemptFacts asModelTest() {
        return new AttemptFacts(status, headers, body, sse, truncated, transport, true, modelKey, mask);
    }

    public AttemptFacts withTruncated(boolean streamTruncated) {
        return new AttemptFacts(status, headers, body, sse, streamTruncated, transport, modelTest, modelKey, mask);
    }

    /** also masks these known secrets (the account's key, the request's credentials) in a failure. */
    public AttemptFacts maskingWith(SecretMask secrets) {
        return new AttemptFacts(status, headers, body, sse, truncated, transport, modelTest, modelKey, secrets);
    }

    public String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    private static Map<String, String> lowerCaseNames(Map<String, String> raw) {
        Map<String, String> copy = new LinkedHashMap<>();
        if (raw != null) {
            raw.forEach((k, v) -> {
                if (k != null && v != null) {
                    copy.putIfAbsent(k.toLowerCase(Locale.ROOT), v);
                }
            });
        }
        return Map.copyOf(copy);
    }
}
