package dev.detour.adapter.api;

/** A request-level error with its HTTP status and stable code (e.g. 400 {@code request.invalid_json}). */
final class ApiException extends RuntimeException {
    private final int status;
    private final String code;

    ApiException(int status, String code, String message) {
        super(message);
        this.status = status;
        this.code = code;
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
