package dev.detour.gateway.port;

/**
 * D-1: a store call failed because the database did not answer (no connection, a timeout, a statement cut),
 * not because it refused the call. The stores raise it; the gateway waits for the database on it (marks the
 * outage, keeps the write for later, answers from the snapshot) and treats every other failure as a refusal.
 */
public final class DatabaseUnavailable extends RuntimeException {
    public DatabaseUnavailable(Throwable cause) {
        super(cause);
    }

    /** True when the database's absence is behind {@code error} (it, or one of its causes, is this exception). */
    public static boolean isBehind(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DatabaseUnavailable) {
                return true;
            }
        }
        return false;
    }
}
