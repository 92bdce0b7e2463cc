package dev.detour.core.recovery;

import dev.detour.core.account.AccountStatus;
import java.time.Instant;

/** does this account need the recovery flow at all? */
public final class NeedsRecovery {
    private NeedsRecovery() {
    }

    /**
     * A revoked account never; otherwise any status but ok, any lingering backoff/cooldown timestamp
     * (even on an ok account), or any non-paused model row (the candidate query's EXISTS column).
     */
    public static boolean test(AccountStatus status, Instant nextRetryAt, Instant cooldownUntil,
            boolean hasModelFailures) {
        if (status == AccountStatus.REVOKED) {
            return false;
        }
        return status != AccountStatus.OK || nextRetryAt != null || cooldownUntil != null || hasModelFailures;
    }
}
