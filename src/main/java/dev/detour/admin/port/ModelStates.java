package dev.detour.admin.port;

import dev.detour.core.account.ModelState;
import dev.detour.core.cooldown.RowChange;
import java.util.List;

/** The per-model state rows of the accounts (account_models). */
public interface ModelStates {
    /**
     * Takes the account's row lock for the rest of the transaction (the failure engine takes the
     * same one); false when the account does not exist.
     */
    boolean lockAccount(long accountId);

    List<ModelState> ofAccount(long accountId);

    List<ModelState> all();

    void write(RowChange change);
}
