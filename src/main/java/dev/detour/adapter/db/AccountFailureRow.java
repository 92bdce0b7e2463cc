package dev.detour.adapter.db;

import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.AccountStatus;
import java.time.Instant;

/** The account's status and failure columns, written together by the failure engine. */
public record AccountFailureRow(
        long id,
        String status,
        int transientFailureCount,
        Instant nextRetryAt,
        Instant cooldownUntil,
        String lastFailureKind,
        String lastFailureMessage,
        String lastFailureResponseJson,
        int semanticFailureStreakCount,
        String semanticFailureStreakFingerprint,
        int breakerFailureStreak,
        int breakerStep,
        Instant breakerOpenUntil,
        int backoffStreak,
        Instant updatedAt) {

    public static AccountFailureRow of(long id, AccountStatus status, AccountFailureState f, Instant now) {
        return new AccountFailureRow(id, status.wire(), f.transientFailureCount(), f.nextRetryAt(), f.cooldownUntil(),
                f.lastFailureKind(), f.lastFailureMessage(), f.lastFailureResponse(), f.semanticStreakCount(),
                f.semanticStreakFingerprint(), f.breakerFailureStreak(), f.breakerStep(), f.breakerOpenUntil(),
                f.backoffStreak(), now);
    }
}
