package dev.detour.admin;

/** The addressed group/account does not exist (HTTP 404 {@code not_found}). */
public final class NotFoundException extends RuntimeException {
    public NotFoundException(String message) {
        super(message);
    }
}
