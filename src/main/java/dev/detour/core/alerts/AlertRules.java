package dev.detour.core.alerts;

import java.time.Duration;
import java.time.Instant;

/** W-1 decisions: suppression per (event, object) and the retry schedule of a failed delivery. */
public final class AlertRules {
    /** A delivery is tried this many times in all, then marked failed. */
    public static final int MAX_ATTEMPTS = 6;
    /** The wait after the first failed attempt; each further failure doubles it. */
    public static final Duration FIRST_RETRY = Duration.ofSeconds(30);
    /** No wait is longer: a receiver down for hours still hears within the hour once it is back. */
    public static final Duration LONGEST_RETRY = Duration.ofHours(1);

    private AlertRules() {
    }

    /**
     * Whether an alert at {@code now} stays quiet because the same (event, object) went to the channel
     * {@code lastSent} and the window has not passed yet. A zero window suppresses nothing.
     */
    public static boolean suppressed(Instant lastSent, Duration window, Instant now) {
        return lastSent != null && !window.isZero() && now.isBefore(lastSent.plus(window));
    }

    /**
     * When to try again after {@code attemptsMade} failed attempts (1 = the first failed): 30 s, 1 min,
     * 2 min, … up to an hour; null once {@link #MAX_ATTEMPTS} are used up (the delivery has failed).
     */
    public static Instant nextRetry(int attemptsMade, Instant now) {
        if (attemptsMade >= MAX_ATTEMPTS) {
            return null;
        }
        Duration wait = FIRST_RETRY.multipliedBy(1L << Math.min(20, Math.max(0, attemptsMade - 1)));
        return now.plus(wait.compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : wait);
    }
}
