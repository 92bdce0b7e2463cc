package dev.detour.core.cooldown;

import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** U-4 / A-: the manual per-model operations of the 模型状态 section, as pure row changes. */
public final class ModelOps {
    private ModelOps() {
    }

    /** 暂停: creates the row when the model never failed (a healthy model can be paused pre-emptively). */
    public static RowChange pause(long accountId, String modelKey, ModelState existing, Instant now) {
        if (existing == null) {
            return RowChange.upsert(ModelState.fresh(accountId, modelKey, ModelStatus.PAUSED, now));
        }
        if (existing.status() == ModelStatus.PAUSED) {
            return RowChange.NONE;
        }
        return RowChange.upsert(ModelRows.withStatus(existing, ModelStatus.PAUSED, now));
    }

    /**
     * 恢复: a paused row goes back to ok; a row left with no failure trace is deleted, since a healthy
     * system holds only manual pauses. Anything but a paused row is left alone.
     */
    public static RowChange resume(ModelState row, Instant now) {
        if (row == null || row.status() != ModelStatus.PAUSED) {
            return RowChange.NONE;
        }
        if (!ModelRows.hasFailureFields(row)) {
            return RowChange.delete(row);
        }
        return RowChange.upsert(ModelRows.withStatus(row, ModelStatus.OK, now));
    }

    /**
     * 解除: drops the model's cooldown and error state. A non-paused row is deleted; a paused row keeps
     * its pause (the user's own decision) and only loses its failure fields.
     */
    public static RowChange clear(ModelState row, Instant now) {
        if (row == null) {
            return RowChange.NONE;
        }
        if (row.status() != ModelStatus.PAUSED) {
            return RowChange.delete(row);
        }
        return ModelRows.hasFailureFields(row) ? RowChange.upsert(ModelRows.resetFailureFields(row, now))
                : RowChange.NONE;
    }

    /** 全部解除: only rows with something to clear — paused and healthy rows are skipped. */
    public static List<RowChange> clearAll(List<ModelState> rows) {
        List<RowChange> changes = new ArrayList<>();
        for (ModelState row : rows) {
            if (row.hasSomethingToClear()) {
                changes.add(RowChange.delete(row));
            }
        }
        return changes;
    }
}
