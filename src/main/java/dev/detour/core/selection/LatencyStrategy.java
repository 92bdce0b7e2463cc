package dev.detour.core.selection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * S-3 {@code latency}: routes whose p95 TTFT stands on at least {@code latencyMinSamples} samples
 * come fastest first (ties: the {@code price} order); routes without enough samples are unknown,
 * never taken for slow (seed smart-router §7.5) and never starved: they follow the sampled ones,
 * least sampled first, and with probability {@code latencyExplorePermille}/1000 the least sampled
 * takes first place — an exploration slot drawn from the request's {@link RandomSource}. With no
 * sampled route at all, the least sampled leads, so real traffic spreads samples across them.
 */
public final class LatencyStrategy implements Strategy {
    public static final LatencyStrategy INSTANCE = new LatencyStrategy();
    private static final long PERMILLE = 1000;

    @Override
    public List<Candidate> rank(List<Route> eligible, RankingContext context) {
        int minSamples = context.settings().latencyMinSamples();
        List<Route> known = new ArrayList<>();
        List<Route> unknown = new ArrayList<>();
        for (Route route : eligible) {
            (RouteStats.latencyKnown(context.stats(route), minSamples) ? known : unknown).add(route);
        }
        known.sort(Comparator.comparingLong((Route r) -> context.stats(r).p95TtftMs())
                .thenComparing(RouteOrder.byPrice(context)));
        unknown.sort(Comparator.comparingLong((Route r) -> RouteStats.samples(context.stats(r)))
                .thenComparing(RouteOrder.byPriorityThenId()));
        List<Route> ordered = new ArrayList<>(eligible.size());
        if (!known.isEmpty() && !unknown.isEmpty() && explores(context)) {
            ordered.add(unknown.remove(0));
        }
        ordered.addAll(known);
        ordered.addAll(unknown);
        return RouteOrder.label(ordered, ReasonCode.SELECTED_FASTEST);
    }

    private static boolean explores(RankingContext context) {
        return context.random().nextLong(PERMILLE) < context.settings().latencyExplorePermille();
    }
}
