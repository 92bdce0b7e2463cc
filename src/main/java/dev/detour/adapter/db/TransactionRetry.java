package dev.detour.adapter.db;

import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * G-4: a transaction that lost a conflict is run again, a bounded number of times. On Galera a row lock is
 * local to the node: a conflicting commit on another node makes this one fail at commit time with a
 * deadlock error (certification failure), which only means "try again"; a plain deadlock or lock wait
 * timeout on a single server means the same.
 */
final class TransactionRetry {
    /** G-4: the whole transaction runs at most this many times. */
    static final int ATTEMPTS = 4;
    private static final int DEADLOCK = 1213;
    private static final int LOCK_WAIT_TIMEOUT = 1205;
    private static final String SERIALIZATION_FAILURE = "40001";

    private TransactionRetry() {
    }

    /** Runs {@code attempt}, again after a conflict, until it succeeds or {@link #ATTEMPTS} have failed. */
    static <T> T run(Supplier<T> attempt) {
        for (int tries = 1; ; tries++) {
            try {
                return attempt.get();
            } catch (RuntimeException e) {
                if (tries >= ATTEMPTS || !isConflict(e)) {
                    throw e;
                }
            }
        }
    }

    /** A deadlock, lock wait timeout or Galera certification failure anywhere in the cause chain. */
    static boolean isConflict(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && (sql.getErrorCode() == DEADLOCK
                    || sql.getErrorCode() == LOCK_WAIT_TIMEOUT || SERIALIZATION_FAILURE.equals(sql.getSQLState()))) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
