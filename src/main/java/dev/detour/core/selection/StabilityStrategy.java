package dev.detour.core.selection;

import java.util.Comparator;
import java.util.List;

/**
 * S-3 {@code stability}: recent real-traffic success rate of the (account, model key) route,
 * descending — Laplace-smoothed ({@link RouteStats#smoothedSuccessPpm}) so an unsampled route
 * counts as 50 % and one lucky request does not beat a long record — then the {@code price} order.
 */
public final class StabilityStrategy implements Strategy {
    public static final StabilityStrategy INSTANCE = new StabilityStrategy();

    @Override
    public List<Candidate> rank(List<Route> eligible, RankingContext context) {
        Comparator<Route> order = Comparator
                .comparingLong((Route r) -> -RouteStats.smoothedSuccessPpm(context.stats(r)))
                .thenComparing(RouteOrder.byPrice(context));
        return RouteOrder.label(RouteOrder.sorted(eligible, order), ReasonCode.SELECTED_MOST_STABLE);
    }
}
