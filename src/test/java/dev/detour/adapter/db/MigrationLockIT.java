package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.testkit.DatabaseFaults;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** G-4's migration lock on a real MariaDB of its own (Galera's part is MigrationsOnGaleraIT). */
class MigrationLockIT {
    private static DatabaseFaults db;

    @BeforeAll
    static void startDatabase() {
        db = DatabaseFaults.startFresh("it-migration-lock");
    }

    @AfterAll
    static void stopDatabase() {
        db.close();
    }

    @BeforeEach
    void emptySchema() {
        db.emptySchema();
    }

    @Test
    void aNewSchemaIsMigratedAndTheLockIsReleased() throws SQLException {
        try (Database database = Database.connect(db.jdbcUrl(), db.user(), db.password(), 2)) {
            database.migrate();

            assertTrue(database.migrationsApplied());
        }
        assertEquals(0, number("SELECT COUNT(*) FROM " + MigrationLock.TABLE));
        assertEquals(0, number("SELECT COUNT(*) FROM flyway_schema_history WHERE success = 0"));
    }

    @Test
    void aClaimWhoseHolderStoppedRenewingItIsTakenOverAndTheMigrationRuns() throws SQLException {
        execute("CREATE TABLE " + MigrationLock.TABLE + " (id TINYINT NOT NULL PRIMARY KEY,"
                + " holder VARCHAR(100) NOT NULL, expires_at DATETIME(6) NOT NULL) ENGINE=InnoDB");
        execute("INSERT INTO " + MigrationLock.TABLE + " (id, holder, expires_at)"
                + " VALUES (1, 'an instance killed mid-migration', UTC_TIMESTAMP(6) - INTERVAL 1 SECOND)");

        try (Database database = Database.connect(db.jdbcUrl(), db.user(), db.password(), 2)) {
            database.migrate();

            assertTrue(database.migrationsApplied());
        }
        assertEquals(0, number("SELECT COUNT(*) FROM " + MigrationLock.TABLE), "released by its new holder");
    }

    @Test
    void migratingAnUpToDateSchemaAgainChangesNothing() throws SQLException {
        try (Database database = Database.connect(db.jdbcUrl(), db.user(), db.password(), 2)) {
            database.migrate();
        }
        long rows = number("SELECT COUNT(*) FROM flyway_schema_history");

        try (Database database = Database.connect(db.jdbcUrl(), db.user(), db.password(), 2)) {
            database.migrate();
        }

        assertEquals(rows, number("SELECT COUNT(*) FROM flyway_schema_history"));
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static long number(String sql) throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }
}
