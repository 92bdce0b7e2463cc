package dev.detour.core.cluster;

import java.time.Duration;
import java.time.Instant;

/**
 * G-3 / R-5: how long the recovery scheduler's lease lasts and when another instance may take it.
 *
 * <p>The holder renews every tick for {@link #TICKS_HELD} ticks: one late or lost renewal (a long
 * tick, a Galera failover, a GC pause) keeps the lease, two do not. A holder that dies right after
 * renewing is taken over at the first tick of another instance at or after the expiry, so within
 * {@link #takeoverWithin} (three ticks) of the death, whatever the instances' phases.
 *
 * <p>A new leader continues where the old one stopped: its first window starts at the old
 * holder's last renewal (read from the lease's expiry), so a scheduled time that fell between the
 * death and the takeover still fires, once.
 */
public final class LeaderTerm {
    /** Ticks a renewal holds the lease. */
    public static final int TICKS_HELD = 2;

    private LeaderTerm() {
    }

    /** The lease's length after each renewal. */
    public static Duration term(Duration tick) {
        return tick.multipliedBy(TICKS_HELD);
    }

    /** The worst case from the holder's death to another instance's first tick as leader. */
    public static Duration takeoverWithin(Duration tick) {
        return tick.multipliedBy(TICKS_HELD + 1L);
    }

    /**
     * Whether {@code holder} may take or keep a lease held by {@code current} until {@code expiresAt}:
     * its own, or another's that has expired (at its expiry exactly the lease is free).
     */
    public static boolean mayHold(String current, Instant expiresAt, String holder, Instant now) {
        return current.equals(holder) || !expiresAt.isAfter(now);
    }

    /**
     * Where the first window of a leader that has just taken the lease starts: at the last renewal
     * before it ({@code priorExpiry} minus the term), when that lies within the takeover bound before
     * {@code now}; otherwise (no earlier holder, a lease left by a run long ago, a renewal from a clock
     * ahead of this one) one tick back, as every later window is.
     */
    public static Instant firstWindowFrom(Instant priorExpiry, Instant now, Duration tick) {
        Instant oneTickBack = now.minus(tick);
        if (priorExpiry == null) {
            return oneTickBack;
        }
        Instant lastRenewal = priorExpiry.minus(term(tick));
        boolean recent = !lastRenewal.isBefore(now.minus(takeoverWithin(tick)));
        return recent && lastRenewal.isBefore(oneTickBack) ? lastRenewal : oneTickBack;
    }
}
