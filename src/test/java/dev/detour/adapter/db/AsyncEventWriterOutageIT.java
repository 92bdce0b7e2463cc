package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.usage.TokenUsage;
import dev.detour.gateway.port.RequestEvent;
import dev.detour.testkit.DatabaseFaults;
import dev.detour.testkit.Gateway;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * D-2 against a real outage: this class's own embedded MariaDB (never the shared one) stopped or frozen
 * while events are emitted, with a memory queue of 5 so most of them spill to the journal; after the
 * server is back every event is in request_events exactly once, in emission order, and each key's
 * spend is added once.
 */
class AsyncEventWriterOutageIT {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static DatabaseFaults server;
    private static Database database;

    @TempDir
    Path journal;

    @BeforeAll
    static void ownServer() {
        server = DatabaseFaults.startFresh("it-event-outage");
        database = Database.connect(server.jdbcUrl(), server.user(), server.password(), 4);
        database.migrate();
    }

    @AfterAll
    static void stopServer() {
        database.close();
        server.close();
    }

    @BeforeEach
    void emptyTables() throws SQLException {
        sql("DELETE FROM request_events");
        sql("DELETE FROM detour_keys");
        sql("INSERT INTO detour_keys (id, name, key_hash, key_hint, policy_json, created_at, updated_at) "
                + "VALUES (7, 'k', REPEAT('a', 64), 'dtr-…0001', '{}', '2026-11-01 00:00:00', '2026-11-01 00:00:00')");
    }

    @Test
    void everyEventEmittedWhileTheDatabaseIsStoppedArrivesOnceInOrderAfterItStartsAgain() throws Exception {
        AsyncEventWriter writer = new AsyncEventWriter(database, 5, journal, Path.of("/dev/shm")); // as Detour runs
        assertNotNull(writer.journalMemoryDir(), "/dev/shm is a tmpfs here");
        List<String> emitted = new ArrayList<>();
        emit(writer, emitted, 0, 10);
        Gateway.await(() -> writer.written() == 10, "the writer caught up");

        server.stop();
        emit(writer, emitted, 10, 60);
        assertTrue(writer.spilled(), "50 events do not fit a queue of 5: the rest wait in the journal only");
        server.start();
        writer.close();

        assertEveryEventOnceInOrder(emitted);
    }

    @Test
    void everyEventEmittedWhileTheDatabaseIsFrozenArrivesOnceInOrderAfterTheThaw() throws Exception {
        AsyncEventWriter writer = new AsyncEventWriter(database, 5, journal);
        List<String> emitted = new ArrayList<>();
        emit(writer, emitted, 0, 10);
        Gateway.await(() -> writer.written() == 10, "the writer caught up");

        server.freeze();
        long emitStarted = System.nanoTime();
        emit(writer, emitted, 10, 60);
        long emitMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - emitStarted);
        assertTrue(writer.spilled(), "50 events do not fit a queue of 5: the rest wait in the journal only");
        server.thaw();
        writer.close();
        System.out.println("D-2: 50 events emitted against a frozen database in " + emitMillis + " ms");

        assertEveryEventOnceInOrder(emitted);
    }

    /**
     * A spill ends while requests keep coming: the writer used to return to the memory queue only when a pass
     * over the journal ended exactly at its end, which under steady load never happened, so it read every event
     * back from disk for as long as the load lasted (the bench: minutes of events written after the load ended).
     * Here a request arrives during every pass (appended on the writer's own thread after each one, so no pass
     * ever ends at the journal's end), and more keep coming from another thread.
     */
    @Test
    void aSpillEndsWhileEventsKeepArrivingAndEveryEventArrivesOnceInOrder() throws Exception {
        List<String> emitted = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger next = new AtomicInteger(1000);
        AtomicReference<AsyncEventWriter> self = new AtomicReference<>();
        AsyncEventWriter writer = new AsyncEventWriter(database, 200, journal, Path.of("/dev/shm"), 8L << 20,
                () -> emitNext(self.get(), emitted, next));
        self.set(writer);
        // the production journal: mapped on tmpfs, so each pass reads what the reader itself copies to the data dir
        assertNotNull(writer.journalMemoryDir(), "/dev/shm is a tmpfs here");
        server.freeze();
        emit(writer, emitted, 0, 1000);
        assertTrue(writer.spilled(), "1,000 events do not fit a queue of 200: the rest wait in the journal only");
        server.thaw();
        AtomicBoolean stop = new AtomicBoolean();
        Thread load = new Thread(() -> {
            while (!stop.get()) {
                emitNext(writer, emitted, next);
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200)); // steady load, not a wait
            }
        });
        load.start();
        try {
            Gateway.await(() -> writer.spillsEnded() >= 1, "the spill ended while events kept arriving");
        } finally {
            stop.set(true);
            load.join();
        }
        writer.close();
        System.out.println("D-2: spill ended under steady load; " + emitted.size() + " events emitted");

        assertEveryEventOnceInOrder(emitted);
    }

    /** One more event, numbered in emission order by whichever thread emits it. */
    private static void emitNext(AsyncEventWriter writer, List<String> emitted, AtomicInteger next) {
        synchronized (emitted) {
            int i = next.getAndIncrement();
            emit(writer, emitted, i, i + 1);
        }
    }

    @Test
    void accountCountersOfAnIdleWriterWaitOutAStoppedDatabaseAndAreWrittenOnItsOwnBeatWithNoFurtherEvent()
            throws Exception {
        oneAccount();
        AsyncEventWriter writer = new AsyncEventWriter(database, 5, journal);
        boolean stopped = false;
        try {
            server.stop();
            stopped = true;
            touch(writer, 2, 3);
            Gateway.await(() -> writer.keptFlushes() >= 1, "the idle writer's flush found no database and kept its sums");
            server.start();
            stopped = false;
            Gateway.await(() -> counts().equals(List.of("2 3")), "the counters written with no event to carry them");
        } finally {
            if (stopped) {
                server.start(); // the other tests of this class need it
            }
            writer.close();
        }
        assertEquals(List.of("2 3"), counts(), "each touch counted once");
    }

    @Test
    void accountCountersThatLostALockConflictAreWrittenOnTheWritersOwnBeatWithNoFurtherEvent() throws Exception {
        oneAccount();
        // the writer's sessions give up a lock wait after 1 s (the statement bound kept as Database sets it)
        Database quick = Database.connect(server.jdbcUrl()
                + "?sessionVariables=innodb_lock_wait_timeout=1,max_statement_time=25", server.user(),
                server.password(), 2);
        AsyncEventWriter writer = new AsyncEventWriter(quick, 5, journal);
        try (Connection holder = database.dataSource().getConnection()) {
            holder.setAutoCommit(false);
            try (Statement s = holder.createStatement()) {
                s.executeQuery("SELECT id FROM accounts WHERE id = 1 FOR UPDATE").close();
            }
            touch(writer, 1, 3);
            // G-4's retries each wait out the lock, then the flush keeps its sums (what a Galera conflict does)
            Gateway.await(() -> writer.keptFlushes() >= 1, "the flush lost the conflict and kept its sums");
            assertEquals(List.of("0 0"), counts());
            holder.rollback();
            Gateway.await(() -> counts().equals(List.of("1 3")), "written on the writer's own beat, no event emitted");
        } finally {
            writer.close();
            quick.close();
        }
        assertEquals(List.of("1 3"), counts(), "each touch counted once");
    }

    private static void oneAccount() throws SQLException {
        sql("DELETE FROM account_served_models");
        sql("DELETE FROM accounts");
        sql("DELETE FROM groups_");
        sql("INSERT INTO groups_ (id, name, created_at, updated_at) VALUES (1, 'g', '2026-11-01 00:00:00',"
                + " '2026-11-01 00:00:00')");
        sql("INSERT INTO accounts (id, name, group_id, platform, base_url, api_key_cipher, api_key_hint,"
                + " model_mappings_json, created_at, updated_at) VALUES (1, 'a1', 1, 'openai', 'http://x', 'c',"
                + " 'sk-…0001', '[]', '2026-11-01 00:00:00', '2026-11-01 00:00:00')");
    }

    /** {@code successes} and {@code errors} touches of account 1, and no event. */
    private static void touch(AsyncEventWriter writer, int successes, int errors) {
        for (int i = 0; i < successes; i++) {
            writer.touchAccount(1, true, T0.plusSeconds(i), "gpt-x");
        }
        for (int i = 0; i < errors; i++) {
            writer.touchAccount(1, false, T0.plusSeconds(10 + i), null);
        }
    }

    /** Account 1's "success_count error_count". */
    private static List<String> counts() {
        try {
            return strings("SELECT CONCAT(success_count, ' ', error_count) FROM accounts WHERE id = 1");
        } catch (SQLException e) {
            return List.of(e.toString());
        }
    }

    private static void assertEveryEventOnceInOrder(List<String> emitted) throws SQLException {
        assertEquals(emitted, strings("SELECT request_id FROM request_events ORDER BY id"));
        long spend = emitted.size() * (long) (emitted.size() - 1) / 2; // event i costs i micros
        assertEquals(List.of(Long.toString(spend)), strings("SELECT spent_micros FROM detour_keys WHERE id = 7"));
    }

    private static void emit(AsyncEventWriter writer, List<String> emitted, int from, int to) {
        for (int i = from; i < to; i++) {
            RequestEvent e = event(i);
            writer.started(e);
            writer.emit(e);
            emitted.add(e.requestId());
        }
    }

    private static RequestEvent event(int i) {
        return new RequestEvent(String.format("outage%04d%016d", i, 0), 7L, "chat_completions", "gpt-x", "gpt-x",
                false, null, null, RequestEvent.Outcome.SUCCESS, 200, null, null, List.of(), List.of(),
                new TokenUsage(1, 1, 0, 0, 0, 0), i, null, 5, "127.0.0.1", T0.plusMillis(i), "chat_completions");
    }

    private static void sql(String statement) throws SQLException {
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private static List<String> strings(String query) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }
}
