package dev.detour.recovery;

/**
 * what one model connectivity test found. {@code status} is the upstream HTTP status, 0 when
 * none arrived; {@code message} is the classified failure message and {@code upstreamBody} the raw
 * answer the upstream gave, both truncated; null on success. {@code firstByteMs} is the time to the upstream's
 * status line (the test asks for no stream, so this is its time to first token; null when none came),
 * {@code servedModel} the model the answer names (null when it names none), {@code failureClass} F-1's class.
 */
public record ModelTestResult(boolean ok, long latencyMs, int status, String message, String upstreamBody,
        String endpoint, String model, String modelKey, String failureKind, Long firstByteMs, String servedModel,
        String failureClass) {
    public static final int MAX_MESSAGE = 300;

    /** One line for a button's result: the message, then the upstream's own words when it sent any. */
    public String summary() {
        if (upstreamBody == null || upstreamBody.isBlank()) {
            return message;
        }
        return truncate(message + " — " + upstreamBody);
    }

    static String truncate(String message) {
        if (message == null || message.length() <= MAX_MESSAGE) {
            return message;
        }
        return message.substring(0, MAX_MESSAGE) + "…";
    }
}
