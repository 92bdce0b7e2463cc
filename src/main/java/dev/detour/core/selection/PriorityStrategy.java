package dev.detour.core.selection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * S-3 {@code priority}, the default: tiers by priority ascending (lower number first); a tier of
 * one is {@code selected_priority}; a larger tier is put in a weighted random order on the
 * account's configured weight ({@code selected_weighted}), drawn over the tier sorted by account
 * id so the result depends on the seed, not on pool order. The full S-4 formula (quota ratio,
 * idle bonus, success rate, shortlist, min pick gap) is a later refinement of {@link #orderTier}.
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
            ranked.addAll(orderTier(tier, context.random()));
        }
        return ranked;
    }

    private static List<Candidate> orderTier(List<Route> tier, RandomSource random) {
        if (tier.size() == 1) {
            return List.of(Candidate.of(tier.get(0), null, ReasonCode.SELECTED_PRIORITY));
        }
        List<Route> byId = new ArrayList<>(tier);
        byId.sort(Comparator.comparingLong(r -> r.account().id()));
        return WeightedOrder.order(byId, r -> r.account().weight(), random).stream()
                .map(r -> Candidate.of(r, null, ReasonCode.SELECTED_WEIGHTED))
                .toList();
    }
}
