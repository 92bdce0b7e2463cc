package dev.detour.core.selection;

import java.time.Instant;
import java.util.List;

/**
 * The outcome of {@link SelectionPipeline#plan}: either an ordered candidate list with the plan's
 * reason (the first candidate's: {@code selected_priority}, {@code selected_weighted} or
 * {@code probe_fallback_soonest_recovery}), or an error code (reason null, no candidates).
 * {@code retryAfter} is set only with {@link PoolErrorCode#HALTED}. Rejections are recorded either way.
 */
public record Plan(
        PoolErrorCode error,
        Instant retryAfter,
        ReasonCode reason,
        List<Candidate> candidates,
        List<Rejection> rejections) {

    public Plan {
        candidates = List.copyOf(candidates);
        rejections = List.copyOf(rejections);
    }

    public static Plan selected(List<Candidate> candidates, List<Rejection> rejections) {
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("a selected plan needs at least one candidate");
        }
        return new Plan(null, null, candidates.get(0).why(), candidates, rejections);
    }

    public static Plan failed(PoolErrorCode error, Instant retryAfter, List<Rejection> rejections) {
        return new Plan(error, retryAfter, null, List.of(), rejections);
    }

    public boolean isSelected() {
        return error == null;
    }

    /** The rejection recorded for an account, or null when it was not left out. */
    public ReasonCode rejectionOf(long accountId) {
        return rejections.stream().filter(r -> r.accountId() == accountId).map(Rejection::reason)
                .findFirst().orElse(null);
    }
}
