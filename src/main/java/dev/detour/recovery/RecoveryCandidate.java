package dev.detour.recovery;

import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.RecoveryRule;
import dev.detour.core.recovery.NeedsRecovery;
import java.time.Instant;

/**
 * One row of the candidate query: the account's status, windows and recovery rule, and
 * whether it has non-paused model rows (an EXISTS column, not the rows). A corrupt stored rule
 * has already been read as {@code off}.
 */
public record RecoveryCandidate(long accountId, AccountStatus status, Instant nextRetryAt, Instant cooldownUntil,
        boolean hasModelFailures, RecoveryRule rule) {

    public boolean needsRecovery() {
        return NeedsRecovery.test(status, nextRetryAt, cooldownUntil, hasModelFailures);
    }
}
