package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.detour.core.failure.AttemptFacts;
import dev.detour.core.failure.Failure;
import dev.detour.core.failure.FailureClassifier;
import dev.detour.gateway.port.PoolStore.StateChange;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.Rows;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The MyBatis pool store's {@code FOR UPDATE} path on MariaDB (C-3): a state change reads the account
 * and its model rows only once it holds the account's row lock, so two failures written at the same
 * time on two connections see each other and the escalation happens exactly once.
 */
class MyBatisPoolStoreIT {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private final ExecutorService writers = Executors.newFixedThreadPool(2);
    private TwoModelAccount pool;

    @BeforeEach
    void start() {
        pool = TwoModelAccount.start();
    }

    @AfterEach
    void stop() {
        writers.shutdownNow();
        pool.close();
    }

    @Test
    void twoModelFailuresWrittenAtOnceOnTwoConnectionsEscalateTheAccountExactlyOnce() {
        List<CompletableFuture<StateChange>> written = pool.gw().app.database().inTransaction(s -> {
            // hold the account's row lock while both writes start, so they are queued on it together
            s.getMapper(PoolStateMapper.class).lockAccount(pool.id());
            List<CompletableFuture<StateChange>> both = List.of(
                    CompletableFuture.supplyAsync(() -> pool.store().recordFailure("gpt", pool.id(), "up-gpt", failure("up-gpt"),
                            T0), writers),
                    CompletableFuture.supplyAsync(() -> pool.store().recordFailure("glm", pool.id(), "up-glm", failure("up-glm"),
                            T0), writers));
            Gateway.await(() -> lockWaits() == 2, "both writes wait for the account's row lock");
            return both;
        });
        List<StateChange> changes = written.stream().map(CompletableFuture::join).toList();

        assertEquals(1, changes.stream().filter(StateChange::escalated).count(),
                "the second write saw the first one's cooling row and escalated; the first did not");
        assertEquals(1, Rows.number("SELECT transient_failure_count FROM account_models WHERE account_id = " + pool.id()
                + " AND model_key = 'up-gpt'"));
        assertEquals(1, Rows.number("SELECT transient_failure_count FROM account_models WHERE account_id = " + pool.id()
                + " AND model_key = 'up-glm'"));
        assertNotNull(Rows.column("SELECT cooldown_until AS t FROM accounts WHERE id = " + pool.id(), "t"),
                "the account itself cools: every serviceable model is unavailable");
    }

    @Test
    void aSuccessWrittenUnderTheLockClearsTheEscalationItFollows() {
        pool.store().recordFailure("gpt", pool.id(), "up-gpt", failure("up-gpt"), T0);
        StateChange escalation = pool.store().recordFailure("glm", pool.id(), "up-glm", failure("up-glm"), T0);
        assertEquals(true, escalation.escalated());

        StateChange cleared = pool.store().recordSuccess("ok", pool.id(), "up-gpt", false, T0.plusSeconds(1));

        assertEquals(true, cleared.account().failure().isClean(), cleared.account().failure().toString());
        assertEquals(0, Rows.number("SELECT COUNT(*) FROM account_models WHERE account_id = " + pool.id()
                + " AND model_key = 'up-gpt'"), "the model that answered is clean again");
        assertEquals(1, Rows.number("SELECT COUNT(*) FROM account_models WHERE account_id = " + pool.id()
                + " AND model_key = 'up-glm'"), "the other model's failure stays");
    }

    /**
     * Connections of the test's user inside the store's locking read (the lock holder's own one has
     * finished); INNODB_TRX would say it directly but needs the PROCESS privilege.
     */
    private static long lockWaits() {
        return Rows.number("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE COMMAND = 'Query'"
                + " AND INFO LIKE 'SELECT id FROM accounts WHERE id = % FOR UPDATE'");
    }

    private static Failure failure(String modelKey) {
        return FailureClassifier.classify(AttemptFacts.response(503, Map.of(), "").forModel(modelKey), T0).failure();
    }
}
