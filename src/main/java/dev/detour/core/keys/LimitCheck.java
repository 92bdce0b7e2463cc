package dev.detour.core.keys;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * L-1 / L-3: whether a key may start one more request, and how much of each of its limits is left.
 * {@code share} is this instance's part of a number shared by the live instances (G-2's InstanceShare):
 * concurrency is split like {@code max_in_flight}, and between two syncs an instance admits at most its
 * part of the requests the shared count leaves (L-4: so instances that have not yet seen each other's
 * requests cannot together pass the limit by more than what the others admitted in one sync).
 */
public final class LimitCheck {
    /** How much of one limit is left; {@code resetSeconds}: until the oldest count leaves (refused: until it fits). */
    public record Headroom(LimitKind kind, long limit, long used, long resetSeconds) {
        public long remaining() {
            return Math.max(0, limit - used);
        }
    }

    /** {@code refusedBy} null = admitted; {@code tightest}: the limit with the smallest share left, or null. */
    public record Verdict(LimitKind refusedBy, long retryAfterSeconds, Headroom tightest) {
        public boolean admitted() {
            return refusedBy == null;
        }
    }

    /** L-3: the smallest remaining fraction of its limit; on a tie the first kind in {@link LimitKind}'s order. */
    static final Comparator<Headroom> TIGHTEST = Comparator
            .comparingDouble((Headroom h) -> (double) h.remaining() / h.limit())
            .thenComparing(Headroom::kind);

    /** {@link LimitKind#values()} once: it copies the array on every call, and this runs on every request. */
    private static final LimitKind[] KINDS = LimitKind.values();

    private LimitCheck() {
    }

    /** One more request now: refused by the limit that keeps it waiting longest, or admitted (in the headroom). */
    public static Verdict admit(KeyLimits limits, KeyUsage usage, LongUnaryOperator share, Instant now) {
        Headroom refused = null;
        Headroom tightest = null;
        for (LimitKind kind : KINDS) {
            Long limit = limits.limit(kind);
            if (limit == null) {
                continue;
            }
            KeyUsage.Window window = kind == LimitKind.CONCURRENT ? null : usage.window(kind, now);
            Headroom wait = refusal(kind, limit, usage, window, share, now);
            if (wait != null && (refused == null || wait.resetSeconds() > refused.resetSeconds())) {
                refused = wait;
            }
            Headroom after = withThisRequest(kind, limit, usage, window, share, now);
            tightest = tightest == null || TIGHTEST.compare(after, tightest) < 0 ? after : tightest;
        }
        if (refused != null) {
            return new Verdict(refused.kind(), refused.resetSeconds(), refused);
        }
        return new Verdict(null, 0, tightest);
    }

    /** Every limit the key has, as used now (nothing counted for a new request): what /my shows. */
    public static List<Headroom> headroom(KeyLimits limits, KeyUsage usage, LongUnaryOperator share, Instant now) {
        List<Headroom> out = new ArrayList<>();
        for (LimitKind kind : KINDS) {
            Long limit = limits.limit(kind);
            if (limit == null) {
                continue;
            }
            if (kind == LimitKind.CONCURRENT) {
                out.add(new Headroom(kind, share.applyAsLong(limit), usage.inFlight(), 0));
            } else {
                KeyUsage.Window window = usage.window(kind, now);
                out.add(new Headroom(kind, limit, window.total(), untilLeaves(kind, window.oldestBucket(), now)));
            }
        }
        return out;
    }

    /**
     * Why {@code kind} refuses now, as a headroom whose reset is the wait, or null when it admits; {@code window}:
     * the kind's counts now (null for the concurrency).
     */
    private static Headroom refusal(LimitKind kind, long limit, KeyUsage usage, KeyUsage.Window window,
            LongUnaryOperator share, Instant now) {
        if (kind == LimitKind.CONCURRENT) {
            long mine = share.applyAsLong(limit);
            return usage.inFlight() >= mine ? new Headroom(kind, mine, usage.inFlight(), 1) : null;
        }
        long total = window.total();
        if (total >= limit) {
            return new Headroom(kind, limit, total,
                    RollingCount.secondsUntilBelow(kind.window(), usage.merged(kind), limit, now));
        }
        if (kind == LimitKind.REQUESTS && window.unsynced() >= share.applyAsLong(limit - window.synced())) {
            // L-4: this instance used its part of what is left; the next sync (within a second) shares it again
            return new Headroom(kind, limit, total, 1);
        }
        return null;
    }

    /**
     * The headroom once this request counts. N-8: read from both counts in place — copying a window's buckets
     * (up to 61 boxed entries per limit, and a sorted copy of them) on every admitted request cost ~KBs per limit.
     */
    private static Headroom withThisRequest(LimitKind kind, long limit, KeyUsage usage, KeyUsage.Window window,
            LongUnaryOperator share, Instant now) {
        if (kind == LimitKind.CONCURRENT) {
            return new Headroom(kind, share.applyAsLong(limit), usage.inFlight() + 1L, 0);
        }
        long used = window.total();
        long oldest = window.oldestBucket();
        if (kind == LimitKind.REQUESTS) {
            used++;
            oldest = Math.min(oldest, RollingCount.bucket(kind.window(), now)); // this request's own bucket
        }
        return new Headroom(kind, limit, used, untilLeaves(kind, oldest, now));
    }

    /** Whole seconds until bucket {@code oldest}'s counts leave {@code kind}'s window; 0 for none (MAX_VALUE). */
    private static long untilLeaves(LimitKind kind, long oldest, Instant now) {
        return oldest == Long.MAX_VALUE ? 0 : RollingCount.secondsUntilLeaves(kind.window(), oldest, now);
    }
}
