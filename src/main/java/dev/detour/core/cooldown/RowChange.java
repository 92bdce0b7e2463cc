package dev.detour.core.cooldown;

import dev.detour.core.account.ModelState;

/**
 * What to do with one (account, model_key) row: nothing, write {@code row} (insert or update), or
 * delete it. {@code row} is the state to write, or for DELETE the row being deleted.
 */
public record RowChange(Action action, ModelState row) {
    public enum Action { NONE, UPSERT, DELETE }

    public static final RowChange NONE = new RowChange(Action.NONE, null);

    public static RowChange upsert(ModelState row) {
        return new RowChange(Action.UPSERT, row);
    }

    public static RowChange delete(ModelState row) {
        return new RowChange(Action.DELETE, row);
    }

    public boolean changes() {
        return action != Action.NONE;
    }
}
