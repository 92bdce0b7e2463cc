package dev.detour.core.selection;

import java.util.ArrayList;
import java.util.List;

/**
 * S-6 / S-8, after ranking (seed smart-router §9.2: affinity economics only among eligible
 * candidates). The account this key + session is bound to, when it is in the ranked (eligible)
 * list, moves to the front: under {@code priority} always ({@code kept_session_affinity}); under
 * {@code price} and {@code balanced} only when its price point is within the key's
 * {@code affinity_premium_pct} of the cheapest eligible one ({@code kept_cache_affinity}), else the
 * ranking stands. Other strategies rank as usual. A bound account that is not eligible is ignored:
 * stickiness never blocks failover.
 */
final class SessionAffinity {
    private SessionAffinity() {
    }

    static List<Candidate> apply(List<Candidate> ranked, RankingContext context) {
        Long sticky = context.request().stickyAccountId();
        if (sticky == null) {
            return ranked;
        }
        // a lazy ranking finds the bound route among the eligible ones without ranking the tail (N-10)
        LazyRanking lazy = ranked instanceof LazyRanking l ? l : null;
        int index = lazy == null ? indexOf(ranked, sticky) : -1;
        Route bound = lazy != null ? lazy.route(sticky) : index < 0 ? null : ranked.get(index).route();
        if (bound == null) {
            return ranked;
        }
        ReasonCode kept = switch (context.policy().strategy()) {
            case PRIORITY -> ReasonCode.KEPT_SESSION_AFFINITY;
            case PRICE, BALANCED -> withinPremium(ranked, bound, context) ? ReasonCode.KEPT_CACHE_AFFINITY : null;
            case STABILITY, LATENCY, MANUAL -> null;
        };
        if (kept == null) {
            return ranked;
        }
        Candidate lifted = Candidate.of(bound, null, kept);
        if (lazy != null) {
            return lazy.withFirst(lifted);
        }
        List<Candidate> reordered = new ArrayList<>(ranked);
        reordered.remove(index);
        reordered.add(0, lifted);
        return reordered;
    }

    private static int indexOf(List<Candidate> ranked, long accountId) {
        for (int i = 0; i < ranked.size(); i++) {
            if (ranked.get(i).accountId() == accountId) {
                return i;
            }
        }
        return -1;
    }

    private static boolean withinPremium(List<Candidate> ranked, Route bound, RankingContext context) {
        PricePoint cheapest = ranked.stream().map(c -> context.price(c.route())).min(PricePoint::compareTo)
                .orElseThrow();
        return context.price(bound).withinPremiumOf(cheapest, context.policy().affinityPremiumPct());
    }
}
