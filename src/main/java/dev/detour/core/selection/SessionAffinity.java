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
        int index = indexOf(ranked, sticky);
        if (index < 0) {
            return ranked;
        }
        ReasonCode kept = switch (context.policy().strategy()) {
            case PRIORITY -> ReasonCode.KEPT_SESSION_AFFINITY;
            case PRICE, BALANCED -> withinPremium(ranked, ranked.get(index), context)
                    ? ReasonCode.KEPT_CACHE_AFFINITY : null;
            case STABILITY, LATENCY, MANUAL -> null;
        };
        if (kept == null) {
            return ranked;
        }
        List<Candidate> reordered = new ArrayList<>(ranked);
        Candidate bound = reordered.remove(index);
        reordered.add(0, Candidate.of(bound.route(), null, kept));
        return reordered;
    }

    private static int indexOf(List<Candidate> ranked, Long accountId) {
        if (accountId == null) {
            return -1;
        }
        for (int i = 0; i < ranked.size(); i++) {
            if (ranked.get(i).accountId() == accountId) {
                return i;
            }
        }
        return -1;
    }

    private static boolean withinPremium(List<Candidate> ranked, Candidate bound, RankingContext context) {
        PricePoint cheapest = ranked.stream().map(c -> context.price(c.route())).min(PricePoint::compareTo)
                .orElseThrow();
        return context.price(bound.route()).withinPremiumOf(cheapest, context.policy().affinityPremiumPct());
    }
}
