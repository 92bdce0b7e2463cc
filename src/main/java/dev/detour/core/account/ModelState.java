package dev.detour.core.account;

import java.time.Instant;

/**
 * One row of the account-models table: created on first failure or manual pause, deleted on
 * success unless paused. rateLimitResetAt is the uncapped reset hint kept for the ledger (C-7).
 * statedUntil (C-4') is the end of the window the upstream itself stated on a 429 (its Retry-After or
 * reset hint, capped): inside it the route is never called, not even by the S-2 probe fallback;
 * null when the cooldown is Detour's own policy window.
 */
public record ModelState(
        long accountId,
        String modelKey,
        ModelStatus status,
        int transientFailureCount,
        Instant cooldownUntil,
        Instant rateLimitResetAt,
        int semanticStreakCount,
        String semanticStreakFingerprint,
        String lastFailureKind,
        String lastFailureMessage,
        String lastFailureResponse,
        Instant createdAt,
        Instant updatedAt,
        Instant statedUntil) {

    /** A row without an upstream-stated window. */
    public ModelState(long accountId, String modelKey, ModelStatus status, int transientFailureCount,
            Instant cooldownUntil, Instant rateLimitResetAt, int semanticStreakCount, String semanticStreakFingerprint,
            String lastFailureKind, String lastFailureMessage, String lastFailureResponse, Instant createdAt,
            Instant updatedAt) {
        this(accountId, modelKey, status, transientFailureCount, cooldownUntil, rateLimitResetAt, semanticStreakCount,
                semanticStreakFingerprint, lastFailureKind, lastFailureMessage, lastFailureResponse, createdAt,
                updatedAt, null);
    }

    public static ModelState fresh(long accountId, String modelKey, ModelStatus status, Instant now) {
        return new ModelState(accountId, modelKey, status, 0, null, null, 0, null, null, null, null, now, now);
    }

    /** C-4': the upstream asked not to be called before statedUntil, and that moment is still ahead. */
    public boolean upstreamStatedAt(Instant now) {
        return statedUntil != null && statedUntil.isAfter(now) && coolingAt(now);
    }

    public boolean coolingAt(Instant now) {
        return cooldownUntil != null && cooldownUntil.isAfter(now);
    }

    /** Unavailable for the escalation check and the badge: cooling, error or paused. */
    public boolean unavailableAt(Instant now) {
        return status != ModelStatus.OK || coolingAt(now);
    }

    /** Any failure trace at all, whatever the status (a paused row keeps its pause but loses these on success). */
    public boolean hasFailureTrace() {
        return transientFailureCount > 0 || cooldownUntil != null || rateLimitResetAt != null || statedUntil != null
                || semanticStreakCount > 0 || semanticStreakFingerprint != null || lastFailureKind != null;
    }

    /** Has something for 解除 / clear-all to clear: a failure trace and not paused. */
    public boolean hasSomethingToClear() {
        return status != ModelStatus.PAUSED && (status == ModelStatus.ERROR || transientFailureCount > 0
                || cooldownUntil != null || semanticStreakCount > 0 || lastFailureKind != null);
    }
}
