package dev.detour.core;

/**
 * Bad input, named by a stable machine-readable code (e.g. {@code validation.recovery_times}).
 * Adapters turn it into HTTP 400/422 with {@code {"error":{"code":…,"message":…}}}; nothing is changed.
 */
public final class ValidationException extends RuntimeException {
    private final String code;
    private final String field;

    public ValidationException(String code, String field, String message) {
        super(message);
        this.code = code;
        this.field = field;
    }

    public ValidationException(String code, String message) {
        this(code, null, message);
    }

    public String code() {
        return code;
    }

    /** The form field the error belongs to, or null; lets the console show it beside the field. */
    public String field() {
        return field;
    }
}
