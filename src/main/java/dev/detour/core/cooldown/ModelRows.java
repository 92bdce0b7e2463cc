package dev.detour.core.cooldown;

import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import java.time.Instant;

/** Copy-with helpers over one account-models row. */
final class ModelRows {
    private ModelRows() {
    }

    static ModelState withStatus(ModelState r, ModelStatus status, Instant now) {
        return new ModelState(r.accountId(), r.modelKey(), status, r.transientFailureCount(), r.cooldownUntil(),
                r.rateLimitResetAt(), r.semanticStreakCount(), r.semanticStreakFingerprint(), r.lastFailureKind(),
                r.lastFailureMessage(), r.lastFailureResponse(), r.createdAt(), now, r.statedUntil());
    }

    /** Failure fields zeroed, status kept (a success or 解除 on a paused row). */
    static ModelState resetFailureFields(ModelState r, Instant now) {
        return new ModelState(r.accountId(), r.modelKey(), r.status(), 0, null, null, 0, null, null, null, null,
                r.createdAt(), now);
    }

    /** True when the row carries any failure trace (paused or not). */
    static boolean hasFailureFields(ModelState r) {
        return r.transientFailureCount() > 0 || r.cooldownUntil() != null || r.rateLimitResetAt() != null
                || r.semanticStreakCount() > 0 || r.semanticStreakFingerprint() != null
                || r.lastFailureKind() != null || r.lastFailureMessage() != null || r.lastFailureResponse() != null;
    }
}
