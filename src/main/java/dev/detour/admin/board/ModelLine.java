package dev.detour.admin.board;

import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.cooldown.RateLimitLedger;
import java.time.Instant;
import java.util.List;

/**
 * One model of an account as the console shows it (U-3 panel, U-4 模型状态): the model key (upstream
 * name), the client-facing aliases that lead to it, whether its mapping was removed, and its row's
 * state (a model without a row is healthy). {@code rateLimitResetAt} is C-7's uncapped upstream reset
 * moment, only when it differs from the (capped) cooldown end.
 */
public record ModelLine(
        String modelKey,
        List<String> aliases,
        boolean mappingRemoved,
        String status,
        boolean cooling,
        long remainingSeconds,
        int transientFailures,
        int streak,
        String lastFailureKind,
        String lastFailureMessage,
        boolean unavailable,
        boolean somethingToClear,
        Instant rateLimitResetAt) {

    public static ModelLine of(String modelKey, ModelMappings mappings, ModelState row, Instant now) {
        List<String> aliases = mappings.clientNamesFor(modelKey);
        boolean removed = aliases.isEmpty() && !mappings.isPassThrough() && !patternLeadsTo(mappings, modelKey);
        if (row == null) {
            return new ModelLine(modelKey, aliases, removed, "ok", false, 0, 0, 0, null, null, false, false, null);
        }
        boolean cooling = row.coolingAt(now);
        return new ModelLine(modelKey, aliases, removed, row.status().wire(), cooling,
                AccountStateView.remainingSeconds(row.cooldownUntil(), now), row.transientFailureCount(),
                row.semanticStreakCount(), row.lastFailureKind(), row.lastFailureMessage(), row.unavailableAt(now),
                row.hasSomethingToClear(), resetAt(row, now));
    }

    /** C-7: the ledger's reset_at, omitted (null) when it equals the capped end or the row is not rate-limited. */
    private static Instant resetAt(ModelState row, Instant now) {
        List<RateLimitLedger.Entry> entries = RateLimitLedger.of(List.of(row), now);
        return entries.isEmpty() ? null : entries.get(0).resetAt();
    }

    public boolean paused() {
        return ModelStatus.PAUSED.wire().equals(status);
    }

    /** The reason shown in the panel: paused beats error beats cooling (message key suffix). */
    public String reason() {
        if (paused()) {
            return "paused";
        }
        return "error".equals(status) ? "error" : cooling ? "cooling" : "ok";
    }

    private static boolean patternLeadsTo(ModelMappings mappings, String modelKey) {
        for (ModelMapping m : mappings.entries()) {
            if (m.isPattern() && m.matches(modelKey) && (m.passesNameThrough() || m.to().equals(modelKey))) {
                return true;
            }
        }
        return false;
    }
}
