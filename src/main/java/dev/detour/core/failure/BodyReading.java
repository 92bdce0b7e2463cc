package dev.detour.core.failure;

/**
 * What the classifier reads out of an answer's body: the document judged (the whole JSON body, or
 * the first SSE data frame), its error fields, and whether it is JSON-like or plain text.
 */
record BodyReading(UpstreamErrorFields envelope, boolean jsonLike, boolean sse, String text) {

    /**
     * The body is read as SSE only when it looks like SSE, whatever the request asked: relays often
     * answer a stream request with a plain JSON error envelope or a text error page.
     */
    static BodyReading of(AttemptFacts facts) {
        boolean sse = SseFrames.looksLikeSse(facts.body());
        String document = sse ? SseFrames.firstDataFrame(facts.body()) : facts.body();
        String trimmed = document == null ? "" : document.strip();
        boolean jsonLike = trimmed.startsWith("{") || trimmed.startsWith("[");
        UpstreamErrorFields envelope = jsonLike ? UpstreamErrorFields.parse(trimmed) : UpstreamErrorFields.EMPTY;
        return new BodyReading(envelope, jsonLike, sse, trimmed);
    }

    /** A non-JSON, non-SSE body: its text is the message. */
    boolean plainText() {
        return !jsonLike && !sse && !text.isEmpty();
    }

    /** F-4 (d): the 2xx body is structurally a failure, or plain text with a failure phrase. */
    boolean semanticFailure() {
        return envelope.structuralFailure() || (plainText() && FailureTexts.isPlainTextFailure(text));
    }

    /**
     * The upstream's own message: the envelope's, or the text of a plain-text body (never legitimate
     * model output). Legitimate JSON content has no envelope message, so it is never read as an error.
     */
    String upstreamMessage() {
        if (envelope.message() != null) {
            return envelope.message();
        }
        return plainText() ? text : null;
    }

    /** F-1 (b): the text searched for permanent phrases; legitimate 2xx content is never searched. */
    String errorText(boolean nonSuccess, String rawBody) {
        if (nonSuccess) {
            return rawBody;
        }
        if (plainText()) {
            return text; // a 2xx plain-text body is never legitimate model output
        }
        if (!semanticFailure()) {
            return null;
        }
        return String.join("\n", nz(envelope.code()), nz(envelope.type()), nz(upstreamMessage()));
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
