package dev.detour.core.selection;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * S-3 {@code priority}, the default: tiers by priority ascending (lower number first); a tier of
 * one is {@code selected_priority}; a larger tier is ordered by the S-4 weighted pick
 * ({@link TierPick}, {@code selected_weighted}), whose draws depend on the seed, not on pool order.
 */
public final class PriorityStrategy implements Strategy {
    public static final PriorityStrategy INSTANCE = new PriorityStrategy();

    @Override
    public List<Candidate> rank(List<Route> eligible, RankingContext context) {
        Map<Integer, List<Route>> tiers = new TreeMap<>();
        for (Route route : eligible) {
            tiers.computeIfAbsent(route.account().priority(), p -> new ArrayList<>()).add(route);
        }
        List<Candidate> ranked = new ArrayList<>(eligible.size());
        for (List<Route> tier : tiers.values()) {
            ranked.addAll(orderTier(tier, context));
        }
        return ranked;
    }

    private static List<Candidate> orderTier(List<Route> tier, RankingContext context) {
        if (tier.size() == 1) {
            return List.of(Candidate.of(tier.get(0), null, ReasonCode.SELECTED_PRIORITY));
        }
        return RouteOrder.label(TierPick.order(tier, context), ReasonCode.SELECTED_WEIGHTED);
    }
}
