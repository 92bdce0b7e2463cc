package dev.detour.admin.port;

/**
 * A write that broke a unique key: another change took the name between our pre-check and the
 * write. {@link Transactions} raises it so the use case can answer 409 like the pre-check does.
 */
public final class NameTakenException extends RuntimeException {
    public NameTakenException(Throwable cause) {
        super("a unique key is already taken", cause);
    }
}
