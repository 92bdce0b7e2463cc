package dev.detour.gateway.live;

import dev.detour.core.selection.ModelStateKey;
import dev.detour.core.selection.RouteStats;
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

    /** A copy for one selection: every route with any recorded outcome. */
    public Map<ModelStateKey, RouteStats> snapshot() {
        Map<ModelStateKey, RouteStats> copy = new HashMap<>();
        rings.forEach((key, ring) -> copy.put(key, ring.stats()));
        return copy;
    }

    public RouteStats of(long accountId, String modelKey) {
        Ring ring = rings.get(new ModelStateKey(accountId, modelKey));
        return ring == null ? null : ring.stats();
    }

    private static final class Ring {
        private final boolean[] outcomes = new boolean[WINDOW];
        private final long[] ttfts = new long[WINDOW];
        private int outcomeCount;
        private int outcomeNext;
        private int ttftCount;
        private int ttftNext;
        /** The last computed stats, dropped on every add: selections read it without taking the lock. */
        private volatile RouteStats cached;

        synchronized void add(boolean success, Integer ttftMs) {
            outcomes[outcomeNext] = success;
            outcomeNext = (outcomeNext + 1) % WINDOW;
            outcomeCount = Math.min(WINDOW, outcomeCount + 1);
            if (success && ttftMs != null && ttftMs >= 0) {
                ttfts[ttftNext] = ttftMs;
                ttftNext = (ttftNext + 1) % WINDOW;
                ttftCount = Math.min(WINDOW, ttftCount + 1);
            }
            // computed once per outcome here rather than by the next readers: under load every request adds an
            // outcome, and readers that found the cache empty queued on this lock to compute the same stats
            cached = compute();
        }

        /** Every selection reads every route (S-3), so reads never lock. */
        RouteStats stats() {
            RouteStats stats = cached;
            return stats != null ? stats : compute();
        }

        private synchronized RouteStats compute() {
            long ok = 0;
            for (int i = 0; i < outcomeCount; i++) {
                ok += outcomes[i] ? 1 : 0;
            }
            RouteStats stats = new RouteStats(ok, outcomeCount - ok, p95(), ttftCount);
            cached = stats;
            return stats;
        }

        private Long p95() {
            if (ttftCount == 0) {
                return null;
            }
            long[] sorted = Arrays.copyOf(ttfts, ttftCount);
            Arrays.sort(sorted);
            int index = (int) Math.ceil(ttftCount * 0.95) - 1;
            return sorted[Math.max(0, index)];
        }
    }
}
