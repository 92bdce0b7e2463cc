package dev.detour.recovery;

/**
 * what one model connectivity test found. {@code status} is the upstream HTTP status, 0 when
 * none arrived; {@code message} is the upstream's own failure text, truncated; null on success.
 */
public record ModelTestResult(boolean ok, long latencyMs, int status, String message, String endpoint,
        String model, String modelKey, String failureKind) {
    public static final int MAX_MESSAGE = 300;

    static String truncate(String message) {
        if (message == null || message.length() <= MAX_MESSAGE) {
            return message;
        }
        return message.substring(0, MAX_MESSAGE) + "…";
    }
}
