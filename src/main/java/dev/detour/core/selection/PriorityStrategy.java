package dev.detour.core.selection;

import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.Protocols;
import dev.detour.core.keys.KeyStrategy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * S-3 {@code priority}, the default: tiers by priority ascending (lower number first); a tier of
 * one is {@code selected_priority}; a larger tier is ordered by the S-4 weighted pick
 * ({@link TierPick}, {@code selected_weighted}), whose draws depend on the seed, not on pool order.
 * A plan ranks it lazily ({@link #ranking}): the first tier's shortlist at once, the rest as it is read.
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

    /**
     * N-10: the same order as {@link #rank} with B-1's native-first, ranked as the attempt loop reads it —
     * a pool of 200 accounts costs a plan the weights of its first tier and five draws, not a sort of the pool.
     */
    @Override
    public List<Candidate> ranking(List<Route> eligible, RankingContext context) {
        return LazyRanking.of(eligible, new Tiers(eligible, context));
    }

    private static List<Candidate> orderTier(List<Route> tier, RankingContext context) {
        if (tier.size() == 1) {
            return List.of(Candidate.of(tier.get(0), null, ReasonCode.SELECTED_PRIORITY));
        }
        return RouteOrder.label(TierPick.order(tier, context), ReasonCode.SELECTED_WEIGHTED);
    }

    /** The tiers in priority order, each ranked when reached; a tier larger than the shortlist in two pieces. */
    private static final class Tiers implements LazyRanking.Pieces {
        private final EligibleRoutes eligible;
        private final RankingContext context;
        private final int[] priorities;
        private int nextTier;
        /** The current tier, when its failover tail is still to be ranked. */
        private TierPick.Ranking unfinished;

        Tiers(List<Route> eligible, RankingContext context) {
            this.eligible = EligibleRoutes.of(eligible, context.request().family());
            this.context = context;
            this.priorities = priorities(this.eligible);
        }

        @Override
        public void next(List<Candidate> out) {
            if (unfinished != null) {
                label(unfinished.failover(), out);
                unfinished = null;
                return;
            }
            EligibleRoutes tier = tier(priorities[nextTier++]);
            if (tier.size() == 1 || mixesBridged(tier)) {
                // B-1 orders a mixed tier as a whole: its native routes may lie beyond the shortlist
                out.addAll(NativeFirst.apply(orderTier(tier, context), context.request().family(),
                        context.policy().strategy()));
                return;
            }
            TierPick.Ranking ranking = new TierPick.Ranking(tier, context);
            label(ranking.shortlist(), out);
            if (tier.size() > TierPick.SHORTLIST) {
                unfinished = ranking;
            }
        }

        private EligibleRoutes tier(int priority) {
            // one tier: the eligible routes as they are, not a copy per request
            return eligible.tier(priority, priorities.length == 1);
        }

        /** Whether B-1 could reorder the tier: a conversational request, not manual, native and bridged routes. */
        private boolean mixesBridged(EligibleRoutes tier) {
            EndpointFamily client = context.request().family();
            if (context.policy().strategy() == KeyStrategy.MANUAL || !Protocols.conversational(client)) {
                return false;
            }
            ServedRoutes served = tier.served(); // bridged or not was worked out with the pool, for this family
            boolean bridged = served.bridged(tier.slot(0));
            for (int i = 1; i < tier.size(); i++) {
                if (served.bridged(tier.slot(i)) != bridged) {
                    return true;
                }
            }
            return false;
        }

        private static void label(List<Route> routes, List<Candidate> out) {
            for (Route route : routes) {
                out.add(Candidate.of(route, null, ReasonCode.SELECTED_WEIGHTED));
            }
        }

        /** The distinct priorities, ascending (a pool has a handful; no map per request). */
        private static int[] priorities(EligibleRoutes eligible) {
            int only = eligible.served().onlyPriority();
            if (only != EligibleRoutes.MIXED && !eligible.isEmpty()) {
                return new int[] {only}; // every served route has it, so every eligible one does (N-10: no visit)
            }
            int[] seen = new int[4];
            int count = 0;
            for (int i = 0; i < eligible.size(); i++) {
                int priority = eligible.priority(i);
                if (count > 0 && priority == seen[count - 1]) {
                    continue; // a pool lists a tier's accounts mostly together
                }
                int at = Arrays.binarySearch(seen, 0, count, priority);
                if (at < 0) {
                    if (count == seen.length) {
                        seen = Arrays.copyOf(seen, count * 2);
                    }
                    int insert = -at - 1;
                    System.arraycopy(seen, insert, seen, insert + 1, count - insert);
                    seen[insert] = priority;
                    count++;
                }
            }
            return Arrays.copyOf(seen, count);
        }
    }
}
