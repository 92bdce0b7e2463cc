package dev.detour.core.selection;

import java.time.Instant;
import java.util.List;

/**
 * The outcome of {@link SelectionPipeline#plan}: either an ordered candidate list with the plan's
 * reason (the first candidate's: a {@code selected_*} code of the key's strategy,
 * {@code kept_session_affinity}, {@code kept_cache_affinity} or
 * {@code probe_fallback_soonest_recovery}), or an error code (reason null, no candidates).
 * {@code retryAfter} is set only with {@link PoolErrorCode#HALTED} and {@link PoolErrorCode#RATE_LIMITED}. Rejections are recorded either way.
 * The plan holds every planned candidate; the key's max attempts are applied by the attempt loop
 * or with {@link #limitedTo}.
 */
public record Plan(
        PoolErrorCode error,
        Instant retryAfter,
        ReasonCode reason,
        List<Candidate> candidates,
        List<Rejection> rejections) {

    public Plan {
        // N-10: a lazy ranking stays lazy (it is unmodifiable); anything else is copied
        candidates = candidates instanceof LazyRanking ? candidates : List.copyOf(candidates);
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

    /** P-3 / §1 max attempts: the first {@code maxAttempts} candidates (0 = all), rejections unchanged. */
    public Plan limitedTo(int maxAttempts) {
        if (maxAttempts <= 0 || maxAttempts >= candidates.size()) {
            return this;
        }
        return new Plan(error, retryAfter, reason, candidates.subList(0, maxAttempts), rejections);
    }

    /** Whether an account is among the planned candidates; ranks no failover tail (N-10). */
    public boolean hasCandidate(long accountId) {
        if (candidates instanceof LazyRanking lazy) {
            return lazy.route(accountId) != null;
        }
        for (Candidate c : candidates) {
            if (c.accountId() == accountId) {
                return true;
            }
        }
        return false;
    }

    /**
     * K-2: the reasons the key's policy left routes out ({@code rejected_group_scope},
     * {@code rejected_admin_block}, {@code rejected_ratio_ceiling}), distinct, in order of first
     * occurrence — for the {@code route_pool.no_eligible_route} message.
     */
    public List<ReasonCode> policyRejectionReasons() {
        return rejections.stream().map(Rejection::reason)
                .filter(r -> r == ReasonCode.REJECTED_GROUP_SCOPE || r == ReasonCode.REJECTED_ADMIN_BLOCK
                        || r == ReasonCode.REJECTED_RATIO_CEILING)
                .distinct().toList();
    }

    /** The rejection recorded for an account, or null when it was not left out. */
    public ReasonCode rejectionOf(long accountId) {
        return rejections.stream().filter(r -> r.accountId() == accountId).map(Rejection::reason)
                .findFirst().orElse(null);
    }
}
