package dev.detour.core.cooldown;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.failure.Failure;
import java.time.Instant;

/** C-2 / F-6: one model-scoped failure applied to that model's row. */
final class ModelFailure {
    private ModelFailure() {
    }

    /**
     * transient count +1; cooldown_until = {@code until} when there is a window (else untouched);
     * the fingerprinted streak; last_failure_*. rate_limit_reset_at keeps the uncapped reset for the
     * C-7 ledger while a 429 cooldown is written (the cooldown end itself when no hint came).
     */
    static ModelState apply(ModelState row, Account account, Failure failure, Instant until, Instant now) {
        Instant cooldown = until != null ? until : row.cooldownUntil();
        Instant resetAt = row.rateLimitResetAt();
        Instant stated = row.statedUntil();
        if (until != null) {
            stated = CooldownWindow.statedUntil(account.failurePolicy(), failure, now); // C-4': a new window decides
            Instant hint = CooldownWindow.honoredHint(account.failurePolicy(), failure, now);
            resetAt = failure.rateLimited() ? (hint != null ? hint : until) : null;
        }
        Streak streak = new Streak(row.semanticStreakCount(), row.semanticStreakFingerprint());
        ModelStatus status = row.status();
        if (streakApplies(row, account, failure)) {
            FailurePolicy policy = account.failurePolicy();
            streak = streak.next(failure.fingerprint(), policy.semanticErrorThreshold());
            // F-6: error_status_enabled=false, or cooldown off, keeps counting but never flips.
            if (streak.reached(policy.semanticErrorThreshold()) && policy.errorStatusEnabled()
                    && policy.cooldownEnabled()) {
                status = ModelStatus.ERROR;
            }
        }
        return new ModelState(row.accountId(), row.modelKey(), status, row.transientFailureCount() + 1, cooldown,
                resetAt, streak.count(), streak.fingerprint(), failure.kind().wire(), failure.message(),
                failure.responseBody(), row.createdAt(), now, stated);
    }

    /** Paused rows, and rows of revoked/paused accounts, are never modified by the streak rule (F-6). */
    private static boolean streakApplies(ModelState row, Account account, Failure failure) {
        return failure.countsTowardStreak() && row.status() != ModelStatus.PAUSED
                && account.status() != AccountStatus.REVOKED && account.status() != AccountStatus.PAUSED;
    }
}
