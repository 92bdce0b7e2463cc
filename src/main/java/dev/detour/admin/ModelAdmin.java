package dev.detour.admin;

import dev.detour.admin.port.Changes;
import dev.detour.admin.port.ModelStates;
import dev.detour.admin.port.Transactions;
import dev.detour.core.ValidationException;
import dev.detour.core.account.ModelState;
import dev.detour.core.cooldown.ModelOps;
import dev.detour.core.cooldown.RowChange;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.function.BiFunction;

/**
 * U-4 / SPEC §9 manual model operations (暂停 / 恢复 / 解除 / 全部解除) on the account_models rows,
 * built on the pure {@link ModelOps}. Each call is one transaction under the account row lock (the
 * failure engine takes the same lock), audited, and bumps the pool revision (O-4). Callers must
 * still reload their own pool snapshot.
 */
public final class ModelAdmin {
    private static final int MAX_MODEL_KEY = 191;
    private final Transactions transactions;
    private final AuditLog audit;
    private final Clock clock;

    public ModelAdmin(Transactions transactions, AuditLog audit, Clock clock) {
        this.transactions = transactions;
        this.audit = audit;
        this.clock = clock;
    }

    /** Every stored model row of the account (paused, cooling, error, or left with a failure trace). */
    public List<ModelState> rows(long accountId) {
        return transactions.read(c -> c.modelStates().ofAccount(accountId));
    }

    /** Every model row of the pool in one read (the accounts page polls this). */
    public List<ModelState> allRows() {
        return transactions.read(c -> c.modelStates().all());
    }

    /** 暂停: creates the row for a model that never failed. Returns the number of rows changed (0 or 1). */
    public int pause(String actor, long accountId, String modelKey) {
        return one(actor, accountId, modelKey, "model.pause",
                (existing, now) -> ModelOps.pause(accountId, modelKey, existing, now));
    }

    /** 恢复: only a paused row changes (back to ok, or deleted when it has no failure trace). */
    public int resume(String actor, long accountId, String modelKey) {
        return one(actor, accountId, modelKey, "model.resume", ModelOps::resume);
    }

    /** 解除: drops cooldown and error; a paused row keeps its pause. */
    public int clear(String actor, long accountId, String modelKey) {
        return one(actor, accountId, modelKey, "model.clear", ModelOps::clear);
    }

    /** 全部解除: only rows with something to clear; paused and healthy rows are skipped. */
    public int clearAll(String actor, long accountId) {
        return transactions.inTransaction(c -> {
            ModelStates states = locked(c, accountId);
            List<RowChange> changes = ModelOps.clearAll(states.ofAccount(accountId));
            changes.forEach(states::write);
            List<String> keys = changes.stream().map(change -> change.row().modelKey()).toList();
            finish(c, actor, "model.clear_all", accountId, null, keys.isEmpty() ? null
                    : AdminJson.JSON.createObjectNode().set("cleared", AdminJson.JSON.valueToTree(keys)).toString());
            return changes.size();
        });
    }

    private int one(String actor, long accountId, String modelKey, String action,
            BiFunction<ModelState, Instant, RowChange> op) {
        String key = modelKey(modelKey);
        return transactions.inTransaction(c -> {
            ModelStates states = locked(c, accountId);
            ModelState existing = states.ofAccount(accountId).stream()
                    .filter(r -> r.modelKey().equals(key)).findFirst().orElse(null);
            RowChange change = op.apply(existing, clock.instant());
            states.write(change);
            if (change.changes()) {
                finish(c, actor, action, accountId, describe(key, existing),
                        change.action() == RowChange.Action.DELETE ? null : describe(key, change.row()));
            }
            return change.changes() ? 1 : 0;
        });
    }

    private static ModelStates locked(Changes c, long accountId) {
        ModelStates states = c.modelStates();
        if (!states.lockAccount(accountId)) {
            throw new NotFoundException("account " + accountId + " does not exist");
        }
        return states;
    }

    private void finish(Changes c, String actor, String action, long accountId, String before, String after) {
        audit.record(c, actor, action, "account", accountId, before, after);
        c.bumpPoolRevision();
    }

    private static String describe(String key, ModelState row) {
        if (row == null) {
            return null;
        }
        return AdminJson.JSON.createObjectNode().put("model_key", key).put("status", row.status().wire())
                .put("transient_failure_count", row.transientFailureCount())
                .put("cooldown_until", row.cooldownUntil() == null ? null : row.cooldownUntil().toString())
                .toString();
    }

    static String modelKey(String raw) {
        if (raw == null || raw.isBlank() || raw.length() > MAX_MODEL_KEY || raw.chars().anyMatch(Character::isISOControl)) {
            throw new ValidationException("validation.model_key", "model_key",
                    "model_key must be 1 to " + MAX_MODEL_KEY + " characters without control characters");
        }
        return raw;
    }
}
