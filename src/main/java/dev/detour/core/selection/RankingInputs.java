package dev.detour.core.selection;

import java.time.Instant;
import java.util.Map;

/**
 * Live facts the strategies rank by, as the gateway holds them (not copied here): fixed maps, or the
 * gateway's live ones read-only — then a strategy reads a value once where it sorts by it, since a
 * sort must see one value per route. Every map may lack an entry, which means "unknown":
 * <ul>
 * <li>{@code routeStats}: real-traffic outcomes and TTFT per (account, model key), read per route;</li>
 * <li>{@code prices}: model base prices by model key, else by the client-facing name;</li>
 * <li>{@code costLedger}: S-7 EMA per (account, model key);</li>
 * <li>{@code lastPicks}: when the gateway last picked each account (S-4 min pick gap, idle).</li>
 * </ul>
 */
public record RankingInputs(
        RouteStatsSource routeStats,
        Map<String, ModelPrice> prices,
        Map<ModelStateKey, CostEma> costLedger,
        LastPicks lastPicks) {

    public static final RankingInputs NONE = new RankingInputs(RouteStatsSource.NONE, Map.of(), Map.of(),
            LastPicks.NONE);

    public RankingInputs {
        routeStats = routeStats == null ? RouteStatsSource.NONE : routeStats;
        prices = prices == null ? Map.of() : prices;
        costLedger = costLedger == null ? Map.of() : costLedger;
        lastPicks = lastPicks == null ? LastPicks.NONE : lastPicks;
    }

    /** Fixed route stats (tests, tables): an immutable or snapshot map. */
    public RankingInputs(Map<ModelStateKey, RouteStats> routeStats, Map<String, ModelPrice> prices,
            Map<ModelStateKey, CostEma> costLedger, Map<Long, Instant> lastPickedAt) {
        this(RouteStatsSource.of(routeStats), prices, costLedger, LastPicks.of(lastPickedAt));
    }

    public RouteStats statsOf(Route route) {
        return routeStats.of(route.account().id(), route.modelKey());
    }

    public CostEma costOf(Route route) {
        return costLedger.get(new ModelStateKey(route.account().id(), route.modelKey()));
    }

    /** The price of the route's model key, else of the requested name; null when neither is known. */
    public ModelPrice priceOf(Route route, String requestedModel) {
        ModelPrice byKey = route.modelKey() == null ? null : prices.get(route.modelKey());
        if (byKey != null || requestedModel == null) {
            return byKey;
        }
        return prices.get(requestedModel);
    }

    public Instant lastPickedAt(long accountId) {
        return lastPicks.of(accountId);
    }

    public RankingInputs withRouteStats(Map<ModelStateKey, RouteStats> stats) {
        return withRouteStatsSource(RouteStatsSource.of(stats));
    }

    /** The gateway's live stats, read per route ({@link RouteStatsSource}: one value per route per selection). */
    public RankingInputs withRouteStatsSource(RouteStatsSource stats) {
        return new RankingInputs(stats, prices, costLedger, lastPicks);
    }

    public RankingInputs withPrices(Map<String, ModelPrice> newPrices) {
        return new RankingInputs(routeStats, newPrices, costLedger, lastPicks);
    }

    public RankingInputs withCostLedger(Map<ModelStateKey, CostEma> ledger) {
        return new RankingInputs(routeStats, prices, ledger, lastPicks);
    }

    public RankingInputs withLastPickedAt(Map<Long, Instant> picked) {
        return withLastPicks(LastPicks.of(picked));
    }

    public RankingInputs withLastPicks(LastPicks picks) {
        return new RankingInputs(routeStats, prices, costLedger, picks);
    }
}
