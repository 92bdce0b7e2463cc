package dev.detour.recovery;

import dev.detour.core.cluster.LeaderTerm;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * R-5 / O-4: with several Detour instances on one database exactly one runs the scheduler. The
 * holder renews its row every tick for core {@link LeaderTerm}'s term; a holder that died (stopped
 * renewing) is taken over once its expiry has passed. Time is the caller's {@code now}, so tests
 * drive it with a controlled clock.
 */
public final class LeaderLease {
    public static final String NAME = "recovery-scheduler";
    private final RecoveryStore store;
    private final String holder;
    private final Duration ttl;

    public LeaderLease(RecoveryStore store, String holder, Duration ttl) {
        this.store = store;
        this.holder = holder;
        this.ttl = ttl;
    }

    /** G-3: the lease of a scheduler that ticks every {@code tick}, for {@link LeaderTerm#term}. */
    public static LeaderLease forTick(RecoveryStore store, String holder, Duration tick) {
        return new LeaderLease(store, holder, LeaderTerm.term(tick));
    }

    /** A holder id unique to this process instance. */
    public static String newHolderId() {
        return "detour-" + UUID.randomUUID();
    }

    public RecoveryStore.LeaseHold acquireOrRenew(Instant now) {
        return store.holdLease(NAME, holder, now, now.plus(ttl));
    }

    /** Gives the lease up at once (graceful stop), so another instance need not wait for expiry. */
    public void release() {
        store.releaseLease(NAME, holder);
    }

    public String holder() {
        return holder;
    }

    public Duration ttl() {
        return ttl;
    }
}
