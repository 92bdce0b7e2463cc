package dev.detour.core.cluster;

import java.time.Duration;
import java.time.Instant;

/**
 * G-2: how often an instance refreshes its registry row and when a silent one counts as gone.
 *
 * <p>Every 5 s: one small write per instance (0.2 per second, nothing beside the request traffic's
 * writes, also on Galera), and a dead instance's share is given back within 20 s. Gone only after
 * three periods without a beat: a Connector/J failover to another Galera node, a long GC pause or a
 * database stall of a few seconds may cost one or two beats, and counting a live instance as gone
 * would raise every other instance's share while it still serves its own.
 */
public final class Heartbeat {
    public static final Duration PERIOD = Duration.ofSeconds(5);
    /** Three periods without a beat: the instance counts as gone. */
    public static final Duration GONE_AFTER = PERIOD.multipliedBy(3);
    /**
     * The worst case for the others to give back a dead instance's share: it counts as gone after
     * {@link #GONE_AFTER}, and each other instance recounts at its own next beat.
     */
    public static final Duration SHARE_BACK_WITHIN = GONE_AFTER.plus(PERIOD);
    /**
     * After this instance's own outage (the whole database away, say), the others it counted before keep
     * counting for {@link #GONE_AFTER} from its first beat that reaches the database again, which comes within a
     * period of the return: one that died during the outage gives its share back within this long of the return.
     */
    public static final Duration SHARE_BACK_AFTER_OUTAGE_WITHIN = PERIOD.plus(GONE_AFTER).plus(PERIOD);
    /** Rows of instances gone this long are deleted (each start registers a new id). */
    public static final Duration FORGOTTEN_AFTER = Duration.ofDays(1);

    private Heartbeat() {
    }

    /**
     * Live while the last beat is at most {@link #GONE_AFTER} away from {@code now}: a little ahead is
     * another host's clock running fast; further ahead than the bound, the clocks disagree by more
     * than the bound can tell apart (or a row was left by a run with another clock) and it is not counted.
     */
    public static boolean live(Instant lastSeenAt, Instant now) {
        return !now.isAfter(lastSeenAt.plus(GONE_AFTER)) && !lastSeenAt.isAfter(now.plus(GONE_AFTER));
    }
}
