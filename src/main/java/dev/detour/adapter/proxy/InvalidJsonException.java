package dev.detour.adapter.proxy;

/** 400 {@code request.invalid_json}: the body is not a JSON object (P-2, N-5). */
public final class InvalidJsonException extends RuntimeException {
    public InvalidJsonException(String message) {
        super(message);
    }
}
