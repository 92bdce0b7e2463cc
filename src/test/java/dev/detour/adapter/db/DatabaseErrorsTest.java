package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.gateway.port.DatabaseUnavailable;
import java.sql.SQLTransientConnectionException;
import org.apache.ibatis.exceptions.PersistenceException;
import org.junit.jupiter.api.Test;

/** D-1: which errors mean "the database is away", and how the use cases are told so. */
class DatabaseErrorsTest {
    @Test
    void connectionErrorsAndTimeoutsMeanUnavailableButARefusalDoesNot() {
        assertTrue(DatabaseErrors.unavailable(new IllegalStateException(
                new SQLTransientConnectionException("pool timeout"))));
        assertTrue(DatabaseErrors.unavailable(new RuntimeException(new java.sql.SQLException("cut", "08S01"))));
        assertTrue(DatabaseErrors.unavailable(new RuntimeException(
                new java.sql.SQLException("Query execution was interrupted (max_statement_time exceeded)", "70100"))));
        assertFalse(DatabaseErrors.unavailable(new IllegalStateException("account 7 no longer exists")));
        assertFalse(DatabaseErrors.unavailable(new RuntimeException(
                new java.sql.SQLIntegrityConstraintViolationException("duplicate", "23000"))));
    }

    @Test
    void aDatabaseThatDidNotAnswerReachesTheUseCasesAsDatabaseUnavailableWithItsCauseKept() {
        PersistenceException cut = new PersistenceException(new SQLTransientConnectionException("pool timeout"));
        RuntimeException told = DatabaseErrors.translated(cut);
        assertInstanceOf(DatabaseUnavailable.class, told);
        assertSame(cut, told.getCause());
        assertTrue(DatabaseUnavailable.isBehind(new IllegalStateException(told)));
        assertSame(told, DatabaseErrors.translated(told));
    }

    @Test
    void aRefusalReachesTheUseCasesUnchanged() {
        PersistenceException duplicate = new PersistenceException(
                new java.sql.SQLIntegrityConstraintViolationException("duplicate", "23000"));
        assertSame(duplicate, DatabaseErrors.translated(duplicate));
        assertFalse(DatabaseUnavailable.isBehind(duplicate));
    }
}
