package dev.detour.core.selection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Orderings the strategies share; every chain ends on account id, so ranking is deterministic (S-3). */
final class RouteOrder {
    private RouteOrder() {
    }

    static Comparator<Route> byPriorityThenId() {
        return Comparator.comparingInt((Route r) -> r.account().priority()).thenComparingLong(r -> r.account().id());
    }

    /** S-3 {@code price}: the price point (S-7 tier, known first, effective price), then priority, then id. */
    static Comparator<Route> byPrice(RankingContext context) {
        Map<Long, PricePoint> points = new HashMap<>();
        return Comparator.comparing((Route r) -> points.computeIfAbsent(r.account().id(), id -> context.price(r)))
                .thenComparing(byPriorityThenId());
    }

    static List<Route> sorted(List<Route> routes, Comparator<Route> order) {
        List<Route> copy = new ArrayList<>(routes);
        copy.sort(order);
        return copy;
    }

    static List<Candidate> label(List<Route> routes, ReasonCode why) {
        return routes.stream().map(r -> Candidate.of(r, null, why)).toList();
    }
}
