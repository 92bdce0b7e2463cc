package dev.detour.core.selection;

import java.util.List;

/**
 * S-3: orders the eligible set of one request. Every returned candidate carries the reason it got
 * its place; the result holds each eligible route exactly once (nothing added, nothing dropped).
 */
public interface Strategy {
    List<Candidate> rank(List<Route> eligible, RankingContext context);

    /**
     * The plan's order: {@link #rank} with native routes before bridged ones within each tier (B-1). A strategy
     * may rank it lazily (N-10: see {@link LazyRanking}), as long as reading it gives exactly this order.
     */
    default List<Candidate> ranking(List<Route> eligible, RankingContext context) {
        return NativeFirst.apply(rank(eligible, context), context.request().family(), context.policy().strategy());
    }
}
