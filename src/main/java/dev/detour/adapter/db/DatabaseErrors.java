package dev.detour.adapter.db;

import dev.detour.gateway.port.DatabaseUnavailable;
import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientException;

/**
 * D-1: tells "the database did not answer" (retry later) from "the database refused this" (a defect or a race),
 * from the JDBC exception; the use cases get the first as a {@link DatabaseUnavailable} and never read JDBC.
 */
final class DatabaseErrors {
    private DatabaseErrors() {
    }

    /**
     * True for a failed or timed-out connection, a pool that could hand out none in time, a socket
     * timeout, or a statement cut by max_statement_time (SQLSTATE class 08 / 70100).
     */
    static boolean unavailable(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLTransientException || t instanceof SQLNonTransientConnectionException
                    || t instanceof SQLRecoverableException || t instanceof SQLTimeoutException
                    || t instanceof IOException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().equals("70100"))) {
                return true;
            }
        }
        return false;
    }

    /** {@code failure} as the use cases see it: a {@link DatabaseUnavailable} when the database did not answer. */
    static RuntimeException translated(RuntimeException failure) {
        return failure instanceof DatabaseUnavailable || !unavailable(failure) ? failure
                : new DatabaseUnavailable(failure);
    }
}
