package dev.detour.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.RecoveryRule;
import dev.detour.core.cluster.LeaderTerm;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.port.PoolStore.StateChange;
import dev.detour.testkit.InMemoryPoolStore;
import dev.detour.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * G-3 / R-5: two schedulers on one lease table (an in-memory {@link RecoveryStore}), ticking every 30 s at
 * different phases on a {@link MutableClock}. The holder dies (stops ticking) right after renewing: the
 * other leads within three ticks, and runs the scheduled recovery whose time fell in between, once.
 */
class SchedulerTakeoverTest {
    private static final Duration TICK = Duration.ofSeconds(30);
    private final MutableClock clock = MutableClock.at("2026-12-01T09:59:00Z");
    private final Leases store = new Leases();

    @Test
    void theOtherInstanceLeadsWithinThreeTicksOfTheHoldersDeathAndRunsTheScheduledTimeItMissed() {
        RecoveryScheduler holder = scheduler("holder");
        RecoveryScheduler other = scheduler("other");
        Duration phase = Duration.ofSeconds(1); // the other ticks just after the holder: its worst case
        assertTrue(holder.tick(clock.instant()).leader());
        clock.advance(phase);
        assertFalse(other.tick(clock.instant()).leader());
        clock.advance(TICK.minus(phase));
        Instant lastRenewal = clock.instant(); // 09:59:30
        assertTrue(holder.tick(lastRenewal).leader(), "the holder renews");
        // and dies; 10:00 (the schedule) passes while nobody leads

        clock.advance(phase);
        Instant tookOver = null;
        while (tookOver == null) {
            if (other.tick(clock.instant()).leader()) {
                tookOver = clock.instant();
            } else {
                assertEquals(0, store.reactivations.size(), "nothing runs while the dead holder's lease lasts");
                clock.advance(TICK);
            }
        }
        Duration after = Duration.between(lastRenewal, tookOver);
        assertTrue(after.compareTo(LeaderTerm.takeoverWithin(TICK)) <= 0, "taken over " + after + " after the death");
        assertEquals(List.of("other"), store.reactivations, "the new leader runs the 10:00 recovery it missed");

        clock.advance(TICK);
        other.tick(clock.instant());
        assertEquals(1, store.reactivations.size(), "once");
    }

    private RecoveryScheduler scheduler(String id) {
        ProbeBudget budget = new ProbeBudget(() -> 10, () -> 1);
        return new RecoveryScheduler(store.as(id), new PoolSnapshot(new InMemoryPoolStore()), null, budget, LeaderLease.forTick(store.as(id), id, TICK),
                Runnable::run, ZoneOffset.UTC, TICK);
    }

    /** One lease row and one account scheduled for 10:00, shared by the instances; records who reactivated. */
    private static final class Leases {
        private String holder;
        private Instant expiresAt;
        private final List<String> reactivations = new ArrayList<>();
        private final RecoveryCandidate scheduled = new RecoveryCandidate(7, AccountStatus.ERROR, null, null, false,
                RecoveryRule.scheduled(List.of("10:00")));

        RecoveryStore as(String instance) {
            return new RecoveryStore() {
                @Override
                public List<RecoveryCandidate> candidates() {
                    return List.of(scheduled);
                }

                @Override
                public Optional<StateChange> reactivate(long accountId, Instant now) {
                    reactivations.add(instance);
                    return Optional.empty();
                }

                @Override
                public Optional<StateChange> testRecovery(long accountId, boolean byPerson, Instant now) {
                    throw new UnsupportedOperationException("no probes here");
                }

                @Override
                public boolean probesPaused() {
                    return false;
                }

                @Override
                public LeaseHold holdLease(String name, String who, Instant now, Instant until) {
                    Instant prior = expiresAt;
                    if (holder != null && !LeaderTerm.mayHold(holder, expiresAt, who, now)) {
                        return new LeaseHold(false, prior);
                    }
                    holder = who;
                    expiresAt = until;
                    return new LeaseHold(true, prior);
                }

                @Override
                public void releaseLease(String name, String who) {
                    if (who.equals(holder)) {
                        holder = null;
                        expiresAt = null;
                    }
                }

                @Override
                public Optional<String> leaseHolder(String name, Instant now) {
                    return Optional.ofNullable(holder);
                }
            };
        }
    }
}
