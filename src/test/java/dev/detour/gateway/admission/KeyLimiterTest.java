package dev.detour.gateway.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.cluster.InstanceShare;
import dev.detour.core.keys.KeyLimits;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.keys.LimitCheck;
import dev.detour.core.keys.LimitKind;
import dev.detour.core.keys.LimitWindow;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.port.KeyLimitStore;
import dev.detour.testkit.InMemoryKeyLimitStore;
import dev.detour.testkit.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class KeyLimiterTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");

    @Test
    void aKeyWithoutLimitsIsNeitherCountedNorGivenHeaders() {
        KeyLimiter limiter = new KeyLimiter(clock);
        KeyLimiter.Admission a = limiter.admit(key(KeyLimits.NONE));
        assertFalse(a.refused());
        assertEquals(null, a.verdict());
        a.release();
    }

    @Test
    void concurrencyIsHeldUntilReleasedAndAReleaseCountsOnce() {
        KeyLimiter limiter = new KeyLimiter(clock);
        KeyEntry key = key(new KeyLimits(null, null, 1, Map.of()));
        KeyLimiter.Admission first = limiter.admit(key);
        assertTrue(limiter.admit(key).refused(), "one at a time");
        first.release();
        first.release();
        KeyLimiter.Admission second = limiter.admit(key);
        assertFalse(second.refused());
        assertTrue(limiter.admit(key).refused(), "a second release of the first gave nothing back twice");
    }

    @Test
    void manyThreadsAdmittingAndReleasingAtOnceNeverHoldMoreThanTheConcurrencyLimit() throws Exception {
        // releases and usage no longer take the key's lock: the check-and-add of the admission still must not let
        // a fourth request in, and every usage reported from any thread must be counted by the next reader
        KeyLimiter limiter = new KeyLimiter(clock);
        KeyEntry key = key(new KeyLimits(null, 1_000_000L, 3, Map.of()));
        AtomicInteger holding = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger admitted = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(8);
        Thread[] threads = new Thread[8];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                for (int i = 0; i < 2_000; i++) {
                    KeyLimiter.Admission a = limiter.admit(key);
                    if (a.refused()) {
                        continue;
                    }
                    most.accumulateAndGet(holding.incrementAndGet(), Math::max);
                    admitted.incrementAndGet();
                    limiter.used(key.id(), 1, 0);
                    holding.decrementAndGet();
                    a.release();
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertTrue(most.get() <= 3, "at most 3 held at once, saw " + most.get());
        assertTrue(admitted.get() > 0);
        LimitCheck.Headroom tokens = limiter.headroom(key).stream()
                .filter(h -> h.kind() == LimitKind.TOKENS).findFirst().orElseThrow();
        assertEquals(admitted.get(), tokens.used(), "every admitted request's token counted");
        LimitCheck.Headroom concurrent = limiter.headroom(key).stream()
                .filter(h -> h.kind() == LimitKind.CONCURRENT).findFirst().orElseThrow();
        assertEquals(0, concurrent.used(), "every hold released");
    }

    @Test
    void tokensAndSpendCountWhenTheUsageArrivesAndRollOutOfTheirWindows() {
        KeyLimiter limiter = new KeyLimiter(clock);
        KeyEntry key = key(new KeyLimits(null, 100L, null, Map.of(LimitWindow.FIVE_HOURS, 1_000L)));
        limiter.admit(key).release();
        limiter.used(key.id(), 100, 400);
        KeyLimiter.Admission refused = limiter.admit(key);
        assertEquals(LimitKind.TOKENS, refused.verdict().refusedBy());
        clock.advance(Duration.ofSeconds(61));
        assertFalse(limiter.admit(key).refused(), "the tokens left the minute");
        limiter.used(key.id(), 0, 600);
        assertEquals(LimitKind.SPEND_5H, limiter.admit(key).verdict().refusedBy());
        clock.advance(Duration.ofHours(5).plusMinutes(5));
        assertFalse(limiter.admit(key).refused(), "the spend left the five hours");
    }

    @Test
    void twoInstancesSharingOneStoreAdmitNoMoreThanTheLimitInABurstAcrossSyncs() {
        InMemoryKeyLimitStore store = new InMemoryKeyLimitStore();
        KeyLimiter a = new KeyLimiter(clock);
        KeyLimiter b = new KeyLimiter(clock);
        a.shareThrough(store, n -> new InstanceShare(2, 0).of((int) n));
        b.shareThrough(store, n -> new InstanceShare(2, 1).of((int) n));
        KeyEntry key = key(new KeyLimits(10L, null, null, Map.of()));
        int admitted = 0;
        for (int round = 0; round < 6; round++) {
            for (int i = 0; i < 20; i++) {
                admitted += a.admit(key).refused() ? 0 : 1;
                admitted += b.admit(key).refused() ? 0 : 1;
            }
            a.sync(); // the worst order: each reads before the other has written
            b.sync();
        }
        assertTrue(admitted <= 10 + 5, "limit 10 + one share of the other instance; admitted " + admitted);
        assertTrue(admitted >= 10, "the whole limit is usable; admitted " + admitted);
        clock.advance(Duration.ofSeconds(61));
        a.sync();
        assertFalse(a.admit(key).refused(), "the next minute");
        System.out.println("L-4 two instances, rpm 10, burst over 6 syncs: admitted " + admitted);
    }

    @Test
    void oneInstanceSeesTheOthersCountsAtItsNextSync() {
        InMemoryKeyLimitStore store = new InMemoryKeyLimitStore();
        KeyLimiter a = new KeyLimiter(clock);
        KeyLimiter b = new KeyLimiter(clock);
        a.shareThrough(store, n -> n);
        b.shareThrough(store, n -> n);
        KeyEntry key = key(new KeyLimits(null, null, null, Map.of(LimitWindow.DAY, 500L)));
        a.admit(key).release();
        a.used(key.id(), 10, 500);
        assertFalse(b.admit(key).refused(), "b has not seen a's spend yet");
        a.sync();
        b.sync();
        assertEquals(LimitKind.SPEND_DAY, b.admit(key).verdict().refusedBy());
        List<LimitCheck.Headroom> seen = b.headroom(key);
        assertEquals(500, seen.get(0).used());
        a.sync();
        assertEquals(500, a.headroom(key).get(0).used(), "a's own write is counted once after its read");
    }

    @Test
    void aFailedReadKeepsTheWrittenCountsKnownAndAFailedWriteKeepsThemForTheNextSync() {
        InMemoryKeyLimitStore shared = new InMemoryKeyLimitStore();
        boolean[] failRead = {false};
        boolean[] failWrite = {false};
        KeyLimitStore flaky = new KeyLimitStore() {
            @Override
            public void add(List<Count> deltas) {
                if (failWrite[0]) {
                    throw new IllegalStateException("database away");
                }
                shared.add(deltas);
            }

            @Override
            public List<Count> all() {
                if (failRead[0]) {
                    throw new IllegalStateException("database away");
                }
                return shared.all();
            }

            @Override
            public void forgetBefore(LimitKind kind, long bucket) {
                shared.forgetBefore(kind, bucket);
            }
        };
        KeyLimiter limiter = new KeyLimiter(clock);
        limiter.shareThrough(flaky, n -> n);
        KeyEntry key = key(new KeyLimits(3L, null, null, Map.of()));
        limiter.admit(key).release();
        failWrite[0] = true;
        assertThrows(IllegalStateException.class, limiter::sync);
        failWrite[0] = false;
        limiter.admit(key).release();
        failRead[0] = true;
        assertThrows(IllegalStateException.class, limiter::sync);
        assertEquals(2, limiter.headroom(key).get(0).used(), "written, not read back: still counted once");
        failRead[0] = false;
        limiter.sync();
        assertEquals(2, limiter.headroom(key).get(0).used());
        assertEquals(2, shared.all().get(0).amount(), "both requests written once");
    }

    private static KeyEntry key(KeyLimits limits) {
        return new KeyEntry(7, "k", true, null, KeyPolicy.UNRESTRICTED.withLimits(limits));
    }
}
