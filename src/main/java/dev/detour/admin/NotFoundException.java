package dev.detour.admin;

/** The addressed group/account does not exist (HTTP 404 {@code not_found}). */
public final class NotFoundException extends RuntimeException {
    public NotFoundException(String message) {
        super(message);
    }

    /** {@code stored} itself, or this exception when there is none: "{what} {id} does not exist". */
    static <T> T unlessMissing(T stored, String what, long id) {
        if (stored == null) {
            throw new NotFoundException(what + " " + id + " does not exist");
        }
        return stored;
    }
}
