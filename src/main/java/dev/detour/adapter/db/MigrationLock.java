package dev.detour.adapter.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * G-4: one instance migrates at a time, also on Galera, where Flyway's own lock does not hold: Galera refuses
 * GET_LOCK (Flyway then falls back to SELECT … FOR UPDATE on its history table), and a row lock is only
 * local to the node, so instances connected to different nodes ran the same migration at once and left a
 * failed V1 behind. This lock is a claim row inserted with autocommit: Galera certifies the insert
 * cluster-wide, so of several instances inserting at once exactly one commits; the others get a duplicate
 * key (or a certification failure) and wait until the row is gone, then find nothing left to migrate.
 *
 * <p>The claim carries a lease (database time, so the instances' clocks do not matter) that its holder
 * renews while it migrates; a holder that dies mid-migration leaves a row that expires after {@link #LEASE},
 * and the next instance takes it over.
 */
final class MigrationLock {
    static final String TABLE = "detour_migration_lock";
    static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration RENEW_EVERY = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(250);
    private static final int DUPLICATE_KEY = 1062;
    private static final Logger log = LoggerFactory.getLogger(MigrationLock.class);

    private final String url;
    private final String user;
    private final String password;
    private final String holder = "pid " + ProcessHandle.current().pid() + " " + UUID.randomUUID();

    MigrationLock(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** Runs {@code migration} while holding the claim; waits (polling) while another instance holds it. */
    void around(Runnable migration) {
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            c.setAutoCommit(true);
            createTable(c);
            awaitClaim(c);
            ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "detour-migration-lease");
                t.setDaemon(true);
                return t;
            });
            try {
                renewer.scheduleWithFixedDelay(() -> renew(), RENEW_EVERY.toMillis(), RENEW_EVERY.toMillis(),
                        TimeUnit.MILLISECONDS);
                migration.run();
            } finally {
                renewer.shutdownNow();
                release(c);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not take the migration lock (" + TABLE + ")", e);
        }
    }

    private static void createTable(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            // Galera replicates DDL in total order: several instances creating it at once are all fine
            s.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (id TINYINT NOT NULL PRIMARY KEY,"
                    + " holder VARCHAR(100) NOT NULL, expires_at DATETIME(6) NOT NULL) ENGINE=InnoDB");
        }
    }

    private void awaitClaim(Connection c) throws SQLException {
        boolean said = false;
        while (!claim(c) && !takeOverExpired(c)) {
            if (!said) {
                log.info("Waiting for another instance's database migration ({})", currentHolder(c));
                said = true;
            }
            pause();
        }
        if (said) {
            log.info("Migration lock taken after waiting");
        }
    }

    private boolean claim(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO " + TABLE + " (id, holder, expires_at)"
                + " VALUES (1, ?, UTC_TIMESTAMP(6) + INTERVAL ? SECOND)")) {
            s.setString(1, holder);
            s.setLong(2, LEASE.toSeconds());
            s.executeUpdate();
            return true;
        } catch (SQLException e) {
            if (e.getErrorCode() == DUPLICATE_KEY || TransactionRetry.isConflict(e)) {
                return false; // another instance's claim committed first
            }
            throw e;
        }
    }

    private boolean takeOverExpired(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE " + TABLE + " SET holder = ?,"
                + " expires_at = UTC_TIMESTAMP(6) + INTERVAL ? SECOND WHERE id = 1 AND expires_at < UTC_TIMESTAMP(6)")) {
            s.setString(1, holder);
            s.setLong(2, LEASE.toSeconds());
            boolean taken = s.executeUpdate() == 1;
            if (taken) {
                log.warn("Took over an expired migration lock: its holder stopped renewing it for {}", LEASE);
            }
            return taken;
        } catch (SQLException e) {
            if (TransactionRetry.isConflict(e)) {
                return false;
            }
            throw e;
        }
    }

    private void renew() {
        try (Connection c = DriverManager.getConnection(url, user, password);
                PreparedStatement s = c.prepareStatement("UPDATE " + TABLE
                        + " SET expires_at = UTC_TIMESTAMP(6) + INTERVAL ? SECOND WHERE id = 1 AND holder = ?")) {
            s.setLong(1, LEASE.toSeconds());
            s.setString(2, holder);
            s.executeUpdate();
        } catch (SQLException e) {
            log.warn("Could not renew the migration lock: {}", e.getMessage()); // tried again in RENEW_EVERY
        }
    }

    private void release(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM " + TABLE + " WHERE id = 1 AND holder = ?")) {
            s.setString(1, holder);
            s.executeUpdate();
        }
    }

    private static String currentHolder(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT holder FROM " + TABLE + " WHERE id = 1")) {
            return r.next() ? "held by " + r.getString(1) : "just released";
        }
    }

    private static void pause() {
        try {
            Thread.sleep(POLL.toMillis()); // waiting for another process, not for a test
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the migration lock", e);
        }
    }
}
