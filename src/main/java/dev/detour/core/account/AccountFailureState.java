package dev.detour.core.account;

import java.time.Instant;

/**
 * The account-level failure columns (seed: ai-switch-reliability). next_retry_at and
 * cooldown_until are always written together. Breaker/backoff fields serve C-6.
 */
public record AccountFailureState(
        int transientFailureCount,
        Instant nextRetryAt,
        Instant cooldownUntil,
        String lastFailureKind,
        String lastFailureMessage,
        String lastFailureResponse,
        int semanticStreakCount,
        String semanticStreakFingerprint,
        int breakerFailureStreak,
        int breakerStep,
        Instant breakerOpenUntil,
        int backoffStreak) {

    public static final AccountFailureState CLEAN =
            new AccountFailureState(0, null, null, null, null, null, 0, null, 0, 0, null, 0);

    /** True when success has nothing to clear (C-5: then no write at all). */
    public boolean isClean() {
        return transientFailureCount == 0 && nextRetryAt == null && cooldownUntil == null
                && lastFailureKind == null && lastFailureMessage == null && lastFailureResponse == null
                && semanticStreakCount == 0 && semanticStreakFingerprint == null
                && breakerFailureStreak == 0 && breakerStep == 0 && breakerOpenUntil == null && backoffStreak == 0;
    }

    /** The later of the account's time-based blocks, or null. */
    public Instant blockedUntil() {
        return later(later(nextRetryAt, cooldownUntil), breakerOpenUntil);
    }

    public static Instant later(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return a.isAfter(b) ? a : b;
    }
}
