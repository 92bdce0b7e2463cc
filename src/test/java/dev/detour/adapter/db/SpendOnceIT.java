package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.usage.TokenUsage;
import dev.detour.gateway.port.RequestEvent;
import dev.detour.gateway.port.RequestEvent.AttemptRecord;
import dev.detour.testkit.Rows;
import dev.detour.testkit.TestDatabase;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * D-1 / K-2: a key's spend is added with its events; a batch written again (its first commit's
 * answer lost to a socket timeout, or replayed after a restart) adds neither events nor spend twice.
 */
class SpendOnceIT {
    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00.125Z");

    @BeforeEach
    void rows() {
        TestDatabase.clean();
        Rows.execute("INSERT INTO detour_keys (id, name, key_hash, key_hint, policy_json, created_at, updated_at) "
                + "VALUES (7, 'k', REPEAT('a', 64), 'dtr-…0001', '{}', '2026-11-01 00:00:00', '2026-11-01 00:00:00')");
    }

    @Test
    void aBatchWrittenAgainAddsItsSpendOnce() throws Exception {
        EventBatches batches = new EventBatches(TestDatabase.database().dataSource());
        List<RequestEvent> first = IntStream.range(0, 3).mapToObj(SpendOnceIT::event).toList();
        batches.writeEvents(first);
        // the retry carries the same three plus two new ones (the queue kept filling meanwhile)
        batches.writeEvents(IntStream.range(0, 5).mapToObj(SpendOnceIT::event).toList());

        assertEquals(5, Rows.number("SELECT COUNT(*) FROM request_events"));
        assertEquals(100 + 101 + 102 + 103 + 104, Rows.number("SELECT spent_micros FROM detour_keys WHERE id = 7"));
    }

    private static RequestEvent event(int i) {
        return new RequestEvent(String.format("spend%02d%019d", i, 0), 7L, "chat_completions", "gpt-x", "gpt-x",
                false, null, null, RequestEvent.Outcome.SUCCESS, 200, null, null,
                List.of(new AttemptRecord(1, 200, null, null, i, "final")), List.of(), new TokenUsage(i, 2, 0, 0, 0, 0),
                100 + i, null, 10, "127.0.0.1", T0.plusMillis(i), "chat_completions");
    }
}
