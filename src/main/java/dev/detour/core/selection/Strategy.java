package dev.detour.core.selection;

import java.util.List;

/**
 * S-3: orders the eligible set of one request. Every returned candidate carries the reason it got
 * its place; the result holds each eligible route exactly once (nothing added, nothing dropped).
 */
public interface Strategy {
    List<Candidate> rank(List<Route> eligible, RankingContext context);
}
