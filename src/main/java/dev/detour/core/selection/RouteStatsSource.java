package dev.detour.core.selection;

import java.util.Map;

/**
 * S-3 real-traffic stats as one selection reads them, route by route: only the routes a strategy
 * ranks by stats are looked up (N-10: a pool of 200 accounts does not cost a copy of every route's
 * stats per request). An implementation must answer the same value for a route throughout one
 * selection — a comparator that sees a route's value change mid-sort breaks the sort's contract.
 */
@FunctionalInterface
public interface RouteStatsSource {
    RouteStatsSource NONE = (accountId, modelKey) -> null;

    /** The route's stats, or null when it has no recorded outcome. */
    RouteStats of(long accountId, String modelKey);

    /** Fixed stats (an immutable or snapshot map: it does not change during the selection). */
    static RouteStatsSource of(Map<ModelStateKey, RouteStats> stats) {
        if (stats == null || stats.isEmpty()) {
            return NONE;
        }
        return (accountId, modelKey) -> stats.get(new ModelStateKey(accountId, modelKey));
    }
}
