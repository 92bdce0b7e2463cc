package dev.detour.gateway.live;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * D-1: whether MariaDB answers, as the probe and the background writers last saw it. The request
 * path never asks the database; it asks this (and skips best-effort reads while the database is
 * away). The log gets one line per transition, never one per request or per retry.
 */
public final class DatabaseHealth {
    /**
     * D-1: while the database is unavailable Detour stays ready for traffic as long as its snapshot
     * was last confirmed current less than this long ago; past it, /readyz answers 503 so a load
     * balancer prefers an instance that still sees the database (the snapshot may miss revoked keys,
     * edited accounts and other instances' cooldowns).
     */
    public static final Duration SNAPSHOT_MAX_AGE = Duration.ofMinutes(10);
    private static final Logger log = LoggerFactory.getLogger(DatabaseHealth.class);

    /** What /readyz reports. {@code unavailableSince} is null while the database answers. */
    public record Readiness(boolean ready, Instant unavailableSince, String reason) {
    }

    private final Clock clock;
    private volatile Instant unavailableSince;
    private volatile String reason;
    private volatile long downNanos;

    public DatabaseHealth(Clock clock) {
        this.clock = clock;
    }

    /** Always available: tests of the bare gateway without a database. */
    public static DatabaseHealth alwaysUp() {
        return new DatabaseHealth(Clock.systemUTC());
    }

    public boolean available() {
        return unavailableSince == null;
    }

    /** When the current outage began, or null. */
    public Instant unavailableSince() {
        return unavailableSince;
    }

    /** Whole seconds of the current outage (0 while available), on a monotonic clock. */
    public long outageSeconds() {
        return unavailableSince == null ? 0 : Duration.ofNanos(System.nanoTime() - downNanos).toSeconds();
    }

    /** A call answered: the outage, if any, is over. */
    public synchronized void answered() {
        if (unavailableSince != null) {
            log.info("database available again after {} s of outage (since {})", outageSeconds(), unavailableSince);
            unavailableSince = null;
            reason = null;
        }
    }

    /** A call failed for want of the database (connection, timeout): an outage begins, once. */
    public synchronized void failed(Throwable error) {
        if (unavailableSince == null) {
            downNanos = System.nanoTime();
            unavailableSince = clock.instant();
            reason = error == null ? "unknown" : rootMessage(error);
            log.error("database unavailable since {}: {}; requests are served from the snapshot, state and"
                    + " event writes wait for it", unavailableSince, reason);
        }
    }

    /**
     * /readyz: ready while the database answers, or while it does not and the snapshot is younger
     * than {@link #SNAPSHOT_MAX_AGE}; {@code snapshotAge} is how long ago it was last confirmed current.
     */
    public Readiness readiness(Duration snapshotAge) {
        Instant since = unavailableSince;
        if (since == null) {
            return new Readiness(true, null, null);
        }
        return new Readiness(snapshotAge.compareTo(SNAPSHOT_MAX_AGE) < 0, since, reason);
    }

    private static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null ? "" : ": " + message.lines().findFirst().orElse(""));
    }
}
