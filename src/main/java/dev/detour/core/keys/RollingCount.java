package dev.detour.core.keys;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * L-1: counts in a {@link LimitWindow}'s fixed steps. A bucket is {@code epochSecond / step}; the window
 * holds the bucket under way and the {@link LimitWindow#STEPS} before it, so bucket {@code b} leaves at
 * {@code (b + STEPS + 1) × step}. Buckets are keyed by that index; amounts are requests, tokens or micros.
 */
public final class RollingCount {
    private RollingCount() {
    }

    public static long bucket(LimitWindow window, Instant at) {
        return Math.floorDiv(at.getEpochSecond(), window.stepSeconds());
    }

    /** The first bucket still inside the window at {@code now}. */
    public static long oldestLive(LimitWindow window, Instant now) {
        return bucket(window, now) - LimitWindow.STEPS;
    }

    public static long sum(LimitWindow window, Map<Long, Long> buckets, Instant now) {
        long oldest = oldestLive(window, now);
        long current = bucket(window, now);
        long sum = 0;
        for (Map.Entry<Long, Long> e : buckets.entrySet()) {
            if (e.getKey() >= oldest && e.getKey() <= current) {
                sum += e.getValue();
            }
        }
        return sum;
    }

    /** Whole seconds until the window's sum is below {@code limit} (0 when it already is). */
    public static long secondsUntilBelow(LimitWindow window, Map<Long, Long> buckets, long limit, Instant now) {
        long running = sum(window, buckets, now);
        if (running < limit) {
            return 0;
        }
        for (Map.Entry<Long, Long> e : live(window, buckets, now).entrySet()) {
            running -= e.getValue();
            if (running < limit) {
                return secondsUntilLeaves(window, e.getKey(), now);
            }
        }
        return 0; // unreachable: an empty window sums to 0, below any limit of at least 1
    }

    /** Whole seconds (at least 1) until {@code bucket}'s counts leave the window. */
    public static long secondsUntilLeaves(LimitWindow window, long bucket, Instant now) {
        long leavesAt = (bucket + LimitWindow.STEPS + 1) * window.stepSeconds();
        return Math.max(1, leavesAt - now.getEpochSecond());
    }

    private static TreeMap<Long, Long> live(LimitWindow window, Map<Long, Long> buckets, Instant now) {
        long oldest = oldestLive(window, now);
        long current = bucket(window, now);
        TreeMap<Long, Long> live = new TreeMap<>();
        buckets.forEach((b, amount) -> {
            if (b >= oldest && b <= current && amount > 0) {
                live.put(b, amount);
            }
        });
        return live;
    }
}
