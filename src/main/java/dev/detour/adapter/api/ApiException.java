package dev.detour.adapter.api;

/** A request-level error with its HTTP status and stable code (e.g. 400 {@code request.invalid_json}). */
final class ApiException extends RuntimeException {
    private final int status;
    private final String code;
    private final long retryAfterSeconds;

    ApiException(int status, String code, String message) {
        this(status, code, message, 0);
    }

    private ApiException(int status, String code, String message, long retryAfterSeconds) {
        super(message);
        this.status = status;
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** too many wrong admin tokens from this address; 429 with {@code Retry-After}. */
    static ApiException throttled(long retryAfterSeconds) {
        return new ApiException(429, "auth.throttled", "too many failed admin token checks from this address; "
                + "retry after " + retryAfterSeconds + " s", retryAfterSeconds);
    }

    /** Seconds for {@code Retry-After}; 0 = none. */
    long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }

    static ApiException notFound() {
        return new ApiException(404, "not_found", "no such resource");
    }

    static ApiException methodNotAllowed() {
        return new ApiException(405, "request.method_not_allowed", "method not allowed here");
    }
}
