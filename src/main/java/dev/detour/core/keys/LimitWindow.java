package dev.detour.core.keys;

import java.time.Duration;

/**
 * L-1: the rolling windows a per-key limit is counted over. Each window is counted in 60 fixed steps
 * (buckets aligned to the epoch) plus the step under way, so a count leaves the window between
 * {@code length} and {@code length + step} after it was made: a limit is never passed inside any exact
 * window, and frees at most one step late. A month is 30 days.
 */
public enum LimitWindow {
    MINUTE("minute", Duration.ofMinutes(1)),
    FIVE_HOURS("5h", Duration.ofHours(5)),
    DAY("day", Duration.ofDays(1)),
    WEEK("week", Duration.ofDays(7)),
    MONTH("month", Duration.ofDays(30));

    /** Whole steps in a window; the step under way is counted besides them. */
    public static final int STEPS = 60;
    private final String wire;
    private final Duration length;

    LimitWindow(String wire, Duration length) {
        this.wire = wire;
        this.length = length;
    }

    public String wire() {
        return wire;
    }

    public Duration length() {
        return length;
    }

    /** 1 s for the minute, 5 min for 5 h, 24 min for a day, 2 h 48 min for a week, 12 h for a month. */
    public long stepSeconds() {
        return length.toSeconds() / STEPS;
    }

    /** The spend window named {@code wire} in {@code spend_windows}, or null. */
    public static LimitWindow spendWindow(String wire) {
        for (LimitWindow w : values()) {
            if (w != MINUTE && w.wire.equals(wire)) {
                return w;
            }
        }
        return null;
    }
}
