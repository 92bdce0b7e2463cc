package dev.detour.gateway.live;

import dev.detour.core.selection.ModelStateKey;
import dev.detour.core.selection.RouteStats;
import dev.detour.core.selection.RouteStatsSource;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * S-3 {@code stability} / {@code latency} inputs from real traffic only (probes never feed it):
 * per (account, model key) the last {@value #WINDOW} outcomes and the last {@value #WINDOW}
 * first-token times, in memory. The strategies apply the minimum sample count.
 */
public final class RouteStatsBook {
    static final int WINDOW = 100;
    private final Map<ModelStateKey, Ring> rings = new ConcurrentHashMap<>();

    public void record(long accountId, String modelKey, boolean success, Integer ttftMs) {
        if (modelKey == null) {
            return;
        }
        rings.computeIfAbsent(new ModelStateKey(accountId, modelKey), k -> new Ring()).add(success, ttftMs);
    }

    /** A copy: every route with any recorded outcome. */
    public Map<ModelStateKey, RouteStats> snapshot() {
        Map<ModelStateKey, RouteStats> copy = new HashMap<>();
        rings.forEach((key, ring) -> copy.put(key, ring.stats()));
        return copy;
    }

    /**
     * For one selection (N-10): reads only the routes the ranking asks about, each once — the first
     * answer, an unsampled route's included, is kept for the rest of the selection, so a sort never
     * sees a route's value change while outcomes keep arriving. One selection, one thread: not shared.
     */
    public RouteStatsSource view() {
        return new View();
    }

    public RouteStats of(long accountId, String modelKey) {
        Ring ring = rings.get(new ModelStateKey(accountId, modelKey));
        return ring == null ? null : ring.stats();
    }

    private final class View implements RouteStatsSource {
        /** Marks a route read while it had no outcome (a map value cannot be null). */
        private static final RouteStats UNSAMPLED = RouteStats.outcomes(0, 0);
        private Map<ModelStateKey, RouteStats> read;

        @Override
        public RouteStats of(long accountId, String modelKey) {
            if (read == null) {
                read = new HashMap<>();
            }
            ModelStateKey key = new ModelStateKey(accountId, modelKey);
            RouteStats stats = read.get(key);
            if (stats == null) {
                Ring ring = rings.get(key);
                RouteStats now = ring == null ? null : ring.stats();
                stats = now == null ? UNSAMPLED : now;
                read.put(key, stats);
            }
            return stats == UNSAMPLED ? null : stats;
        }
    }

    /**
     * One route's window. Request threads never wait for it: an outcome is queued and applied by whichever
     * thread holds the ring at that moment (itself when it is free). A lock here made a convoy under load —
     * with a few accounts every ring has several requests finishing at once, and on a busy two-core machine a
     * holder descheduled mid-update kept the others parked for tens of milliseconds (JFR, session 14).
     */
    private static final class Ring {
        private final ConcurrentLinkedQueue<Long> queued = new ConcurrentLinkedQueue<>();
        /** Held by the one thread applying queued outcomes; the fields below are written only under it. */
        private final AtomicBoolean applying = new AtomicBoolean();
        private final boolean[] outcomes = new boolean[WINDOW];
        private final long[] ttfts = new long[WINDOW];
        /** The same first-token times in ascending order, kept so on every add: the p95 is read, not sorted. */
        private final long[] sortedTtfts = new long[WINDOW];
        private int outcomeCount;
        private int outcomeNext;
        private int successesInWindow;
        private int ttftCount;
        private int ttftNext;
        /** The stats of the current window, replaced after every batch of outcomes: read without any lock. */
        private volatile RouteStats cached;

        void add(boolean success, Integer ttftMs) {
            queued.add(encode(success, ttftMs));
            // re-checked after letting go: an outcome queued while this thread was applying, by a thread that
            // then found the ring taken, is applied here rather than left until the route's next outcome
            while (!queued.isEmpty() && applying.compareAndSet(false, true)) {
                try {
                    for (Long outcome = queued.poll(); outcome != null; outcome = queued.poll()) {
                        apply(outcome);
                    }
                    // computed once per batch here rather than by the readers: every request reads the stats
                    cached = new RouteStats(successesInWindow, outcomeCount - successesInWindow, p95(), ttftCount);
                } finally {
                    applying.set(false);
                }
            }
        }

        /** Bit 0 the success, the rest the first-token time plus one (0: none to sample). */
        private static long encode(boolean success, Integer ttftMs) {
            long ttft = success && ttftMs != null && ttftMs >= 0 ? ttftMs + 1L : 0L;
            return ttft << 1 | (success ? 1 : 0);
        }

        private void apply(long outcome) {
            boolean success = (outcome & 1) == 1;
            long ttftPlusOne = outcome >>> 1;
            if (outcomeCount == WINDOW && outcomes[outcomeNext]) {
                successesInWindow--; // the oldest outcome leaves the window
            }
            outcomes[outcomeNext] = success;
            successesInWindow += success ? 1 : 0;
            outcomeNext = (outcomeNext + 1) % WINDOW;
            outcomeCount = Math.min(WINDOW, outcomeCount + 1);
            if (ttftPlusOne > 0) {
                long ttftMs = ttftPlusOne - 1;
                if (ttftCount == WINDOW) {
                    removeSorted(ttfts[ttftNext]); // the oldest time leaves the window
                    ttftCount--;
                }
                ttfts[ttftNext] = ttftMs;
                insertSorted(ttftMs);
                ttftNext = (ttftNext + 1) % WINDOW;
                ttftCount++;
            }
        }

        /** Null only between the ring's creation and its first outcome: the route reads as unsampled. */
        RouteStats stats() {
            return cached;
        }

        /** The nearest-rank 95th percentile of the window's first-token times. */
        private Long p95() {
            if (ttftCount == 0) {
                return null;
            }
            int index = (int) Math.ceil(ttftCount * 0.95) - 1;
            return sortedTtfts[Math.max(0, index)];
        }

        /** Into the first {@code ttftCount} sorted values, before the count grows: larger ones move up a place. */
        private void insertSorted(long value) {
            int at = Arrays.binarySearch(sortedTtfts, 0, ttftCount, value);
            at = at < 0 ? -at - 1 : at;
            System.arraycopy(sortedTtfts, at, sortedTtfts, at + 1, ttftCount - at);
            sortedTtfts[at] = value;
        }

        /** Out of the first {@code ttftCount} sorted values, before the count shrinks: larger ones move down. */
        private void removeSorted(long value) {
            int at = Arrays.binarySearch(sortedTtfts, 0, ttftCount, value);
            System.arraycopy(sortedTtfts, at + 1, sortedTtfts, at, ttftCount - at - 1);
        }
    }
}
