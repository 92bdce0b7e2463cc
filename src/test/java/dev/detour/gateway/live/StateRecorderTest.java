package dev.detour.gateway.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelState;
import dev.detour.core.failure.AttemptFacts;
import dev.detour.core.failure.Failure;
import dev.detour.core.failure.FailureClassifier;
import dev.detour.core.selection.ModelStateKey;
import dev.detour.gateway.port.DatabaseUnavailable;
import dev.detour.gateway.port.PoolStore;
import dev.detour.gateway.port.StateJournal;
import dev.detour.testkit.AccountMother;
import dev.detour.testkit.InMemoryPoolStore;
import java.sql.SQLTransientConnectionException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * D-1 without a database: a store that can be "down" (every write throws the driver's connection
 * error) shows that the request thread applies a failure in memory at once and never waits, and
 * that the background writer lands every change once, in order, when the store answers again.
 */
class StateRecorderTest {
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final FailurePolicy COOLING = new FailurePolicy(0, 0, true, 10, 10, true, true, 1800);
    private final Account a = AccountMother.account(1).maps("gpt", "upstream-gpt").failurePolicy(COOLING).build();
    private final Account b = AccountMother.account(2).maps("gpt", "upstream-gpt").failurePolicy(COOLING).build();
    private FlakyStore store;
    private PoolSnapshot snapshot;
    private DatabaseHealth health;
    private StateWrites writes;
    private StateRecorder recorder;

    @BeforeEach
    void start() {
        store = new FlakyStore(List.of(a, b));
        snapshot = new PoolSnapshot(store);
        health = new DatabaseHealth(Clock.fixed(T0, ZoneOffset.UTC));
        writes = new StateWrites(health, snapshot, StateJournal.NONE);
        recorder = new StateRecorder(store, snapshot, writes);
    }

    @AfterEach
    void stop() {
        writes.close(0);
    }

    @Test
    void aFailureCoolsItsRouteAtOnceWhileTheDatabaseIsDown() {
        store.down = true;
        recorder.onFailure(a, "upstream-gpt", failure503(), T0);
        ModelState row = snapshot.view().models().get(new ModelStateKey(1, "upstream-gpt"));
        assertNotNull(row, "the next request already sees the cooldown");
        assertEquals(T0.plusSeconds(10), row.cooldownUntil());
        await(() -> !health.available(), "the writer noticed the outage");
        assertEquals(0, store.applied.size(), "nothing reached the database");
        assertEquals(1, writes.pending());
    }

    @Test
    void writesLandInOrderAndOnceWhenTheDatabaseAnswersAgain() {
        store.down = true;
        recorder.onFailure(a, "upstream-gpt", failure503(), T0);
        recorder.onFailure(b, "upstream-gpt", failure503(), T0.plusSeconds(1));
        recorder.onSuccess(a, "upstream-gpt", T0.plusSeconds(20));
        await(() -> !health.available(), "outage noticed");
        store.down = false;
        await(() -> writes.pending() == 0, "every write landed");
        assertTrue(health.available());
        assertEquals(List.of("failure 1", "failure 2", "success 1"), store.applied);
        assertFalse(store.hasRow(new ModelStateKey(1, "upstream-gpt")), "a's row cleared by its success");
        assertEquals(1, store.row(new ModelStateKey(2, "upstream-gpt")).transientFailureCount());
    }

    @Test
    void aReloadWhileAWriteWaitsKeepsTheCooldown() {
        store.down = true;
        recorder.onFailure(a, "upstream-gpt", failure503(), T0);
        snapshot.reload(); // reads still answer: another instance moved the revision
        ModelState row = snapshot.view().models().get(new ModelStateKey(1, "upstream-gpt"));
        assertNotNull(row, "the pending failure is laid over the reloaded pool");
        assertEquals(T0.plusSeconds(10), row.cooldownUntil());
    }

    /**
     * D-1: a reload reads the database without the snapshot's write lock. Before, a failure seen while the
     * refresher's read hung on a frozen database waited for that read (up to the driver's 30 s socket timeout):
     * the client's request with it.
     */
    @Test
    void aFailureIsAppliedAtOnceWhileAReloadWaitsOnAFrozenDatabase() throws InterruptedException {
        CountDownLatch thaw = store.holdNextRead();
        Thread reload = started("reload", snapshot::reload);
        store.awaitHeldRead();
        Thread request = started("request", () -> recorder.onFailure(a, "upstream-gpt", failure503(), T0));
        await(() -> !request.isAlive(), "the request's failure applied while the reload waits on the database");
        assertTrue(reload.isAlive(), "the reload was still waiting for its read");
        assertEquals(T0.plusSeconds(10), cooldownOfA(), "the next request already sees the cooldown");

        thaw.countDown();
        reload.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(reload.isAlive(), "the reload ended once the database answered");
        assertEquals(T0.plusSeconds(10), cooldownOfA(), "the reloaded pool keeps the cooldown");
    }

    /**
     * The race that once made reads hold the lock: a read taken before a pending write landed, installed after
     * that write left the overlay, would undo the write in memory until the next reload. Such a read is made
     * again.
     */
    @Test
    void aWriteThatLandsWhileAReloadReadsIsNotUndoneByThatOlderRead() throws InterruptedException {
        store.down = true;
        recorder.onFailure(a, "upstream-gpt", failure503(), T0);
        CountDownLatch thaw = store.holdNextRead();
        Thread reload = started("reload", snapshot::reload);
        store.awaitHeldRead(); // this read has the pool without the failure
        store.down = false;
        await(() -> writes.pending() == 0, "the failure landed and left the overlay while the read waited");
        int readsBefore = store.reads.get();

        thaw.countDown();
        reload.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(reload.isAlive(), "the reload ended");
        assertEquals(T0.plusSeconds(10), cooldownOfA(), "the older read was not installed over the landed write");
        assertTrue(store.reads.get() > readsBefore, "the reload read the pool again");
        assertEquals(1, store.row(new ModelStateKey(1, "upstream-gpt")).transientFailureCount());
    }

    private Instant cooldownOfA() {
        ModelState row = snapshot.view().models().get(new ModelStateKey(1, "upstream-gpt"));
        assertNotNull(row, "a's row is in the snapshot");
        return row.cooldownUntil();
    }

    private static Thread started(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true); // a regression hangs the thread, not the test JVM
        thread.start();
        return thread;
    }

    @Test
    void aWriteRetriedAfterAnUnconfirmedCommitCountsOnce() {
        store.commitThenFail = 1; // the commit reaches the database, its answer is lost
        recorder.onFailure(a, "upstream-gpt", failure503(), T0);
        await(() -> writes.pending() == 0, "the write was retried and confirmed");
        assertEquals(1, store.row(new ModelStateKey(1, "upstream-gpt")).transientFailureCount());
        assertEquals(List.of("failure 1"), store.applied);
    }

    private static Failure failure503() {
        return FailureClassifier.classify(AttemptFacts.response(503, Map.of(), "").forModel("upstream-gpt"), T0)
                .failure();
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("never: " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /**
     * The test kit's in-memory store (the same pure state rules as the MyBatis store), whose writes
     * fail like a frozen database while {@code down}; {@code applied} lists the writes that changed it.
     */
    private static final class FlakyStore implements PoolStore {
        final InMemoryPoolStore memory = new InMemoryPoolStore();
        final List<String> applied = new ArrayList<>();
        final AtomicInteger reads = new AtomicInteger();
        volatile boolean down;
        volatile int commitThenFail;
        private volatile CountDownLatch thaw;
        private final CountDownLatch heldRead = new CountDownLatch(1);

        FlakyStore(List<Account> initial) {
            initial.forEach(x -> memory.account(x, "sk-" + x.id()));
        }

        /** The next read takes the pool as it is now and answers only once the returned latch is counted down. */
        CountDownLatch holdNextRead() {
            thaw = new CountDownLatch(1);
            return thaw;
        }

        void awaitHeldRead() throws InterruptedException {
            assertTrue(heldRead.await(30, TimeUnit.SECONDS), "a read began");
        }

        @Override
        public PoolData load() {
            PoolData data = memory.load();
            reads.incrementAndGet();
            CountDownLatch until = thaw;
            if (until != null) { // a frozen database: the answer comes late
                thaw = null;
                heldRead.countDown();
                try {
                    until.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return data;
        }

        @Override
        public long revision() {
            return memory.revision();
        }

        @Override
        public synchronized StateChange recordFailure(String writeId, long accountId, String modelKey,
                Failure failure, Instant at) {
            refuseWhileDown();
            long before = memory.revision();
            StateChange change = memory.recordFailure(writeId, accountId, modelKey, failure, at);
            noteApplied(before, "failure " + accountId);
            loseTheAnswerOnce();
            return change;
        }

        @Override
        public synchronized StateChange recordSuccess(String writeId, long accountId, String modelKey,
                boolean modelTest, Instant at) {
            refuseWhileDown();
            long before = memory.revision();
            StateChange change = memory.recordSuccess(writeId, accountId, modelKey, modelTest, at);
            noteApplied(before, "success " + accountId);
            return change;
        }

        ModelState row(ModelStateKey key) {
            return memory.row(key.accountId(), key.modelKey());
        }

        boolean hasRow(ModelStateKey key) {
            return row(key) != null;
        }

        private void noteApplied(long revisionBefore, String write) {
            if (memory.revision() != revisionBefore) {
                applied.add(write);
            }
        }

        private void refuseWhileDown() {
            if (down) {
                throw new DatabaseUnavailable(new SQLTransientConnectionException("detour-db - Connection is not"
                        + " available, request timed out after 3000ms"));
            }
        }

        private void loseTheAnswerOnce() {
            if (commitThenFail > 0) {
                commitThenFail--;
                throw new DatabaseUnavailable(new SQLTransientConnectionException("(conn=12) Socket timeout"));
            }
        }
    }
}
