package dev.detour.core.selection;

import java.time.Instant;

/** What a {@link Strategy} may look at besides the eligible routes: the request (key policy, groups), time, randomness. */
public record RankingContext(SelectionRequest request, Instant now, RandomSource random) {
}
