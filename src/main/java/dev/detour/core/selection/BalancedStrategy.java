package dev.detour.core.selection;

import dev.detour.core.keys.BalancedWeights;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * S-3 {@code balanced}: score = (w_stability × stability + w_price × price + w_latency × latency)
 * / 100, each part in ppm (0 … 1,000,000), highest first; ties by the {@code price} order. The
 * normalization is public (seed smart-router §8.4):
 * <ul>
 * <li>stability: the Laplace-smoothed success rate (unsampled = 0.5);</li>
 * <li>price: min–max over the eligible routes, cheapest = 1, dearest = 0 — over effective prices
 * when some route's model price is known (routes of unknown price then score 0), else over group
 * ratios;</li>
 * <li>latency: min–max over the p95 TTFT of routes with enough samples, fastest = 1, slowest = 0;
 * an unsampled route scores 0.5 (unknown is not slow).</li>
 * </ul>
 * A part on which every compared route is equal scores 1 for all of them.
 */
public final class BalancedStrategy implements Strategy {
    public static final BalancedStrategy INSTANCE = new BalancedStrategy();

    @Override
    public List<Candidate> rank(List<Route> eligible, RankingContext context) {
        Map<Long, Long> scores = scores(eligible, context);
        Comparator<Route> order = Comparator.comparingLong((Route r) -> -scores.get(r.account().id()))
                .thenComparing(RouteOrder.byPrice(context));
        return RouteOrder.label(RouteOrder.sorted(eligible, order), ReasonCode.SELECTED_BALANCED);
    }

    /** The balanced score of every eligible route, by account id (ppm). */
    static Map<Long, Long> scores(List<Route> eligible, RankingContext context) {
        BalancedWeights w = context.policy().balancedWeights();
        Map<Long, Long> price = priceScores(eligible, context);
        Map<Long, Long> latency = latencyScores(eligible, context);
        Map<Long, Long> scores = new HashMap<>();
        for (Route route : eligible) {
            long id = route.account().id();
            long stability = RouteStats.smoothedSuccessPpm(context.stats(route));
            scores.put(id, (w.stability() * stability + w.price() * price.get(id) + w.latency() * latency.get(id))
                    / 100);
        }
        return scores;
    }

    private static Map<Long, Long> priceScores(List<Route> eligible, RankingContext context) {
        Map<Long, PricePoint> points = new HashMap<>();
        eligible.forEach(r -> points.put(r.account().id(), context.price(r)));
        boolean anyKnown = points.values().stream().anyMatch(PricePoint::known);
        List<Route> compared = eligible.stream().filter(r -> !anyKnown || points.get(r.account().id()).known())
                .toList();
        return minMax(eligible, compared, r -> points.get(r.account().id()).value(), 0);
    }

    private static Map<Long, Long> latencyScores(List<Route> eligible, RankingContext context) {
        int minSamples = context.settings().latencyMinSamples();
        List<Route> sampled = eligible.stream()
                .filter(r -> RouteStats.latencyKnown(context.stats(r), minSamples)).toList();
        return minMax(eligible, sampled, r -> context.stats(r).p95TtftMs(), Ppm.ONE / 2);
    }

    /** Lower value = better: (max − v) / (max − min) over {@code compared}; others get {@code otherwise}. */
    private static Map<Long, Long> minMax(List<Route> all, List<Route> compared, ToLongFunction<Route> value,
            long otherwise) {
        long min = compared.stream().mapToLong(value).min().orElse(0);
        long max = compared.stream().mapToLong(value).max().orElse(0);
        Map<Long, Long> scores = new HashMap<>();
        all.forEach(r -> scores.put(r.account().id(), otherwise));
        for (Route route : compared) {
            long score = max == min ? Ppm.ONE : Ppm.ratio(max - value.applyAsLong(route), max - min);
            scores.put(route.account().id(), score);
        }
        return scores;
    }
}
