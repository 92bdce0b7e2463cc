package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.List;
import java.util.concurrent.TimeUnit;
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
        AsyncEventWriter writer = new AsyncEventWriter(database, 5, journal);
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
