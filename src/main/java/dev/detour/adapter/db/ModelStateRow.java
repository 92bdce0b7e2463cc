package dev.detour.adapter.db;

import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import java.time.Instant;

/** account_models as stored. */
public record ModelStateRow(
        long accountId,
        String modelKey,
        String status,
        int transientFailureCount,
        Instant cooldownUntil,
        Instant rateLimitResetAt,
        int semanticFailureStreakCount,
        String semanticFailureStreakFingerprint,
        String lastFailureKind,
        String lastFailureMessage,
        String lastFailureResponseJson,
        Instant createdAt,
        Instant updatedAt,
        Instant statedUntil) {

    public ModelState toState() {
        return new ModelState(accountId, modelKey, ModelStatus.fromWire(status), transientFailureCount, cooldownUntil,
                rateLimitResetAt, semanticFailureStreakCount, semanticFailureStreakFingerprint, lastFailureKind,
                lastFailureMessage, lastFailureResponseJson, createdAt, updatedAt, statedUntil);
    }

    public static ModelStateRow of(ModelState s) {
        return new ModelStateRow(s.accountId(), s.modelKey(), s.status().wire(), s.transientFailureCount(),
                s.cooldownUntil(), s.rateLimitResetAt(), s.semanticStreakCount(), s.semanticStreakFingerprint(),
                s.lastFailureKind(), s.lastFailureMessage(), s.lastFailureResponse(), s.createdAt(), s.updatedAt(),
                s.statedUntil());
    }
}
