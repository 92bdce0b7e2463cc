package dev.detour.adapter.db;

import dev.detour.admin.port.ModelStates;
import dev.detour.core.account.ModelState;
import dev.detour.core.cooldown.RowChange;
import java.util.List;

/** {@link ModelStates} in {@code account_models}, inside the caller's session. */
record MyBatisModelStates(PoolStateMapper pool) implements ModelStates {
    @Override
    public boolean lockAccount(long accountId) {
        return pool.lockAccount(accountId) != null;
    }

    @Override
    public List<ModelState> ofAccount(long accountId) {
        return pool.selectModelStates(accountId).stream().map(ModelStateRow::toState).toList();
    }

    @Override
    public List<ModelState> all() {
        return pool.selectAllModelStates().stream().map(ModelStateRow::toState).toList();
    }

    @Override
    public void write(RowChange change) {
        switch (change.action()) {
            case UPSERT -> pool.upsertModelState(ModelStateRow.of(change.row()));
            case DELETE -> pool.deleteModelState(change.row().accountId(), change.row().modelKey());
            case NONE -> { }
        }
    }
}
