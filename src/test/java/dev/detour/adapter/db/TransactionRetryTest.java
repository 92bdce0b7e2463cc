package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.ibatis.exceptions.PersistenceException;
import org.junit.jupiter.api.Test;

class TransactionRetryTest {
    /** What MyBatis throws when Galera refuses a commit that lost certification (MariaDB reports a deadlock). */
    private static RuntimeException certificationFailure() {
        return new PersistenceException("commit failed", new SQLTransactionRollbackException(
                "Deadlock found when trying to get lock; try restarting transaction", "40001", 1213));
    }

    @Test
    void deadlocksLockWaitTimeoutsAndCertificationFailuresAreConflicts() {
        assertTrue(TransactionRetry.isConflict(certificationFailure()));
        assertTrue(TransactionRetry.isConflict(new PersistenceException(new SQLException("Lock wait timeout", "HY000", 1205))));
        assertTrue(TransactionRetry.isConflict(new RuntimeException(new SQLException("serialization", "40001", 0))));
    }

    @Test
    void otherDatabaseErrorsAreNotConflicts() {
        assertFalse(TransactionRetry.isConflict(new PersistenceException(new SQLException("Duplicate entry", "23000", 1062))));
        assertFalse(TransactionRetry.isConflict(new IllegalStateException("no cause")));
    }

    @Test
    void aTransactionThatLostAConflictRunsAgainAndItsResultIsReturned() {
        AtomicInteger runs = new AtomicInteger();

        String result = TransactionRetry.run(() -> {
            if (runs.incrementAndGet() < 3) {
                throw certificationFailure();
            }
            return "committed";
        });

        assertEquals("committed", result);
        assertEquals(3, runs.get());
    }

    @Test
    void retriesAreBoundedAndTheLastConflictIsThrown() {
        AtomicInteger runs = new AtomicInteger();

        RuntimeException thrown = assertThrows(PersistenceException.class, () -> TransactionRetry.run(() -> {
            runs.incrementAndGet();
            throw certificationFailure();
        }));

        assertEquals(TransactionRetry.ATTEMPTS, runs.get());
        assertTrue(TransactionRetry.isConflict(thrown));
    }

    @Test
    void anyOtherFailureIsThrownAtOnce() {
        AtomicInteger runs = new AtomicInteger();
        IllegalArgumentException failure = new IllegalArgumentException("not a conflict");

        RuntimeException thrown = assertThrows(IllegalArgumentException.class, () -> TransactionRetry.run(() -> {
            runs.incrementAndGet();
            throw failure;
        }));

        assertSame(failure, thrown);
        assertEquals(1, runs.get());
    }
}
