package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.failure.AttemptFacts;
import dev.detour.core.failure.Failure;
import dev.detour.core.failure.FailureClassifier;
import dev.detour.testkit.Rows;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * D-1 in MariaDB: a state write that arrives late (the database was away) or twice (its commit's
 * answer was lost) never counts twice and never overwrites what was written after it happened.
 */
class LateStateWritesIT {
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private TwoModelAccount pool;
    private MyBatisPoolStore store;
    private long id;

    @BeforeEach
    void start() {
        pool = TwoModelAccount.start();
        store = pool.store();
        id = pool.id();
    }

    @AfterEach
    void stop() {
        pool.close();
    }

    @Test
    void aFailureWrittenAgainWithItsIdCountsOnce() {
        store.recordFailure("write-1", id, "up-gpt", failure(503, T0), T0);
        store.recordFailure("write-1", id, "up-gpt", failure(503, T0), T0);
        assertEquals(1, count("transient_failure_count", "up-gpt"));
        assertEquals(1, Rows.number("SELECT transient_failure_count FROM accounts WHERE id = " + id));
    }

    @Test
    void aLateFailureBuildsOnNewerStateAndKeepsItsLongerWindow() {
        // another instance wrote a 429 with a 10-minute Retry-After a minute after our failure happened
        Instant newer = T0.plusSeconds(60);
        store.recordFailure("other", id, "up-gpt", FailureClassifier.classify(AttemptFacts.response(429,
                Map.of("retry-after", "600"), "").forModel("up-gpt"), newer).failure(), newer);
        store.recordFailure("ours", id, "up-gpt", failure(503, T0), T0);
        assertEquals(2, count("transient_failure_count", "up-gpt"));
        assertEquals("2026-11-29 10:11:00.000", Rows.column("SELECT cooldown_until AS t FROM account_models WHERE"
                + " account_id = " + id + " AND model_key = 'up-gpt'", "t"), "the newer, longer window stays");
    }

    @Test
    void aLateSuccessLeavesAFailureWrittenAfterIt() {
        store.recordFailure("other", id, "up-gpt", failure(503, T0.plusSeconds(5)), T0.plusSeconds(5));
        store.recordSuccess("ours", id, "up-gpt", false, T0); // happened before that failure, written after it
        assertEquals(1, count("transient_failure_count", "up-gpt"));
        store.recordSuccess("later", id, "up-gpt", false, T0.plusSeconds(6));
        assertEquals(0, Rows.number("SELECT COUNT(*) FROM account_models WHERE account_id = " + id));
    }

    private long count(String column, String modelKey) {
        return Rows.number("SELECT " + column + " FROM account_models WHERE account_id = " + id + " AND model_key = '"
                + modelKey + "'");
    }

    private static Failure failure(int status, Instant at) {
        return FailureClassifier.classify(AttemptFacts.response(status, Map.of(), "").forModel("up-gpt"), at)
                .failure();
    }
}
