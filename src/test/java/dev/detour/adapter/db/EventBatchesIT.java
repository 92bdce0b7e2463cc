package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.usage.TokenUsage;
import dev.detour.gateway.port.RequestEvent;
import dev.detour.gateway.port.RequestEvent.AttemptRecord;
import dev.detour.testkit.Rows;
import dev.detour.testkit.TestDatabase;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * D-2: a batch commits only when its transaction holds a row for every event. INSERT IGNORE skips a row on
 * more than a duplicate (here a CHECK constraint the test adds, as a schema change or a server that swallowed
 * an error could): before, such a batch committed, its spend added, and the writer counted the skipped event
 * as written.
 */
class EventBatchesIT {
    private static final Instant T0 = Instant.parse("2026-12-03T12:00:00.125Z");

    @BeforeEach
    void rows() {
        TestDatabase.clean();
        Rows.execute("INSERT INTO detour_keys (id, name, key_hash, key_hint, policy_json, created_at, updated_at) "
                + "VALUES (7, 'k', REPEAT('a', 64), 'dtr-…0001', '{}', '2026-11-01 00:00:00', '2026-11-01 00:00:00')");
        Rows.execute("ALTER TABLE request_events ADD CONSTRAINT ck_test_refused CHECK (request_id NOT LIKE 'refused%')");
    }

    @AfterEach
    void dropConstraint() {
        Rows.execute("ALTER TABLE request_events DROP CONSTRAINT ck_test_refused");
    }

    /** The refused row first, in the middle and last: the INSERT's counts and the full count each see it. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void aBatchWhoseRowTheDatabaseSkippedWithoutAnErrorIsNotCommittedNorItsSpendAdded(int refusedAt) {
        EventBatches batches = new EventBatches(TestDatabase.database().dataSource());
        List<RequestEvent> batch = new ArrayList<>(List.of(event("kept00"), event("kept01")));
        batch.add(refusedAt, event("refused"));

        assertNotCommitted(assertThrows(SQLException.class, () -> batches.writeEvents(batch, false)));
    }

    /**
     * Rows the transaction lost after the INSERT said it wrote each one, as when Galera lost a brute-force
     * abort's error: a trigger on the spend update (the statement after the INSERT) deletes them, so the
     * INSERT's counts are whole and only the check of the rows still held can see it.
     */
    @Test
    void aBatchWhoseRowsTheTransactionLostAfterTheInsertIsNotCommittedNorItsSpendAdded() {
        Rows.execute("CREATE TRIGGER tr_test_lose AFTER UPDATE ON detour_keys FOR EACH ROW"
                + " DELETE FROM request_events WHERE request_id LIKE 'lost%'");
        try {
            EventBatches batches = new EventBatches(TestDatabase.database().dataSource());
            List<RequestEvent> batch = List.of(event("lost00"), event("lost01"), event("lost02"));

            assertNotCommitted(assertThrows(SQLException.class, () -> batches.writeEvents(batch, false)));
        } finally {
            Rows.execute("DROP TRIGGER tr_test_lose");
        }
    }

    private static void assertNotCommitted(SQLException refused) {
        assertInstanceOf(EventBatches.ShortBatch.class, refused.getCause(), refused.toString());
        assertTrue(TransactionRetry.isConflict(refused), "retried as a lost conflict is: " + refused);
        assertEquals(0, Rows.number("SELECT COUNT(*) FROM request_events"), "none of the batch committed");
        assertEquals(0, Rows.number("SELECT spent_micros FROM detour_keys WHERE id = 7"), "nor its spend");
    }

    @Test
    void aFreshBatchHoldingEveryEventCommitsWithItsSpend() throws Exception {
        EventBatches batches = new EventBatches(TestDatabase.database().dataSource());
        List<RequestEvent> batch = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            batch.add(event(String.format("kept%03d", i)));
        }
        batches.writeEvents(batch, false);

        assertEquals(500, Rows.number("SELECT COUNT(*) FROM request_events"));
        assertEquals(50_000, Rows.number("SELECT spent_micros FROM detour_keys WHERE id = 7"));
    }

    @Test
    void aBatchRetriedOverEventsAlreadyStoredCommitsWithEveryEventOnce() throws Exception {
        EventBatches batches = new EventBatches(TestDatabase.database().dataSource());
        batches.writeEvents(List.of(event("kept00")), false);
        // a retry whose first commit landed: the stored event counts as held, the new one is added
        batches.writeEvents(List.of(event("kept00"), event("kept01"), event("kept01")), true);

        assertEquals(2, Rows.number("SELECT COUNT(*) FROM request_events"));
        assertEquals(200, Rows.number("SELECT spent_micros FROM detour_keys WHERE id = 7"));
    }

    private static RequestEvent event(String prefix) {
        String id = (prefix + "00000000000000000000000000").substring(0, 26);
        return new RequestEvent(id, 7L, "chat_completions", "gpt-x", "gpt-x", false, null, null,
                RequestEvent.Outcome.SUCCESS, 200, null, null, List.of(new AttemptRecord(1, 200, null, null, 1, "final")),
                List.of(), new TokenUsage(1, 2, 0, 0, 0, 0), 100, null, 10, "127.0.0.1", T0, "chat_completions");
    }
}
