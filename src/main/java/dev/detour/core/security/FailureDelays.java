package dev.detour.core.security;

import java.time.Duration;
import java.time.Instant;

/**
 * X-3 how long a client must wait after failed sign-ins (passwords, admin tokens, Detour keys):
 * the first {@code delayFrom − 1} failures cost nothing; the {@code delayFrom}-th makes the next
 * try wait {@code first}, and each further failure doubles the wait up to {@code cap}. Every full
 * {@code halvingAfter} without a failure halves the count, so an owner who mistyped is soon
 * forgiven, while an attacker who keeps failing stays at the cap. Never a lock-out: the wait is
 * always finite and only ever applies to whoever holds the failures (see AuthThrottle). Pure: the
 * time is passed in.
 */
public record FailureDelays(int delayFrom, Duration first, Duration cap, Duration halvingAfter) {
    /** Failures from one client address, whatever name or credential they tried. */
    public static final FailureDelays PER_ADDRESS = new FailureDelays(10, Duration.ofSeconds(1),
            Duration.ofMinutes(15), Duration.ofHours(1));
    /** Failures from one client address on one user name (console sign-in). */
    public static final FailureDelays PER_ADDRESS_AND_NAME = new FailureDelays(5, Duration.ofSeconds(1),
            Duration.ofMinutes(15), Duration.ofHours(1));

    /** Counts saturate here: the wait reached the cap long before, and halving stays quick. */
    static final int MAX_COUNT = 1 << 16;

    /** What one client has on record: how many failures (before decay) and when the last one was. */
    public record Failures(int count, Instant last) {
    }

    public FailureDelays {
        if (delayFrom < 1 || first.isNegative() || first.isZero() || cap.compareTo(first) < 0) {
            throw new IllegalArgumentException("need delayFrom ≥ 1 and 0 < first ≤ cap");
        }
        // waiting out the cap must not also halve the count, or an attacker at the cap would slide back down
        if (halvingAfter.compareTo(cap) <= 0) {
            throw new IllegalArgumentException("halvingAfter must be longer than cap");
        }
    }

    /** The wait that {@code count} failures impose after the last of them. */
    public Duration delayAfter(int count) {
        if (count < delayFrom) {
            return Duration.ZERO;
        }
        int doublings = count - delayFrom;
        if (doublings >= 40) { // 2^40 × first is beyond any sensible cap; avoid overflow
            return cap;
        }
        Duration wait = first.multipliedBy(1L << doublings);
        return wait.compareTo(cap) > 0 ? cap : wait;
    }

    /** How long a client with these failures must still wait at {@code now}; zero when it may try. */
    public Duration waitBefore(Failures failures, Instant now) {
        if (failures == null) {
            return Duration.ZERO;
        }
        Instant allowedAt = failures.last().plus(delayAfter(failures.count()));
        return now.isBefore(allowedAt) ? Duration.between(now, allowedAt) : Duration.ZERO;
    }

    /** The count at {@code now}: halved for every full {@code halvingAfter} since the last failure. */
    public int countAt(Failures failures, Instant now) {
        if (failures == null) {
            return 0;
        }
        long quietPeriods = Duration.between(failures.last(), now).dividedBy(halvingAfter);
        return quietPeriods <= 0 ? failures.count() : quietPeriods >= 31 ? 0 : failures.count() >> quietPeriods;
    }

    /** The record after one more failure at {@code now} ({@code failures} may be null: the first). */
    public Failures afterFailure(Failures failures, Instant now) {
        return new Failures(Math.min(MAX_COUNT, countAt(failures, now) + 1), now);
    }

    /** True once decay has brought the count to zero: the record can be dropped. */
    public boolean forgotten(Failures failures, Instant now) {
        return countAt(failures, now) == 0;
    }

    /** A wait as whole seconds for {@code Retry-After}, rounded up (waiting that long always suffices). */
    public static long retryAfterSeconds(Duration wait) {
        return Math.max(1, (wait.toMillis() + 999) / 1000);
    }
}
