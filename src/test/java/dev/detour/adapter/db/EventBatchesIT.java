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
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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

    @Test
    void aBatchWhoseRowTheDatabaseSkippedWithoutAnErrorIsNotCommittedNorItsSpendAdded() {
        EventBatches batches = new EventBatches(TestDatabase.database().dataSource());
        List<RequestEvent> batch = List.of(event("kept00"), event("refused"), event("kept01"));

        SQLException refused = assertThrows(SQLException.class, () -> batches.writeEvents(batch, false));

        assertInstanceOf(EventBatches.ShortBatch.class, refused.getCause(), refused.toString());
        assertTrue(TransactionRetry.isConflict(refused), "retried as a lost conflict is: " + refused);
        assertEquals(0, Rows.number("SELECT COUNT(*) FROM request_events"), "none of the batch committed");
        assertEquals(0, Rows.number("SELECT spent_micros FROM detour_keys WHERE id = 7"), "nor its spend");
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
