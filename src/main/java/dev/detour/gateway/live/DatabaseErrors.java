package dev.detour.gateway.live;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientException;

/** D-1: tells "the database did not answer" (retry later) from "the database refused this" (a defect or a race). */
public final class DatabaseErrors {
    private DatabaseErrors() {
    }

    /**
     * True for a failed or timed-out connection, a pool that could hand out none in time, a socket
     * timeout, or a statement cut by max_statement_time (SQLSTATE class 08 / 70100).
     */
    public static boolean unavailable(Throwable error) {
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
}
