package dev.detour.gateway.live;

import dev.detour.core.selection.ModelStateKey;
import dev.detour.core.selection.RouteStats;
import dev.detour.core.selection.RouteStatsSource;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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

    private static final class Ring {
        private final boolean[] outcomes = new boolean[WINDOW];
        private final long[] ttfts = new long[WINDOW];
        /** The same first-token times in ascending order, kept so on every add: the p95 is read, not sorted. */
        private final long[] sortedTtfts = new long[WINDOW];
        private int outcomeCount;
        private int outcomeNext;
        private int successesInWindow;
        private int ttftCount;
        private int ttftNext;
        /** The stats of the current window, replaced on every add: selections read it without taking the lock. */
        private volatile RouteStats cached;

        synchronized void add(boolean success, Integer ttftMs) {
            if (outcomeCount == WINDOW && outcomes[outcomeNext]) {
                successesInWindow--; // the oldest outcome leaves the window
            }
            outcomes[outcomeNext] = success;
            successesInWindow += success ? 1 : 0;
            outcomeNext = (outcomeNext + 1) % WINDOW;
            outcomeCount = Math.min(WINDOW, outcomeCount + 1);
            if (success && ttftMs != null && ttftMs >= 0) {
                if (ttftCount == WINDOW) {
                    removeSorted(ttfts[ttftNext]); // the oldest time leaves the window
                    ttftCount--;
                }
                ttfts[ttftNext] = ttftMs;
                insertSorted(ttftMs);
                ttftNext = (ttftNext + 1) % WINDOW;
                ttftCount++;
            }
            // computed once per outcome here rather than by the next readers: under load every request adds an
            // outcome, and readers that found the cache empty queued on this lock to compute the same stats
            cached = new RouteStats(successesInWindow, outcomeCount - successesInWindow, p95(), ttftCount);
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
