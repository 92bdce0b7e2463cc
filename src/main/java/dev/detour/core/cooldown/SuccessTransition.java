package dev.detour.core.cooldown;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import java.time.Instant;
import java.util.List;

/**
 * One success → the account's and its model row's next state (C-5), safe to apply late (D-1): a
 * success clears nothing that changed after it happened. The twin of {@link FailureTransition}, used by
 * the gateway on its snapshot and by the store on the state it reads under the row lock.
 */
public final class SuccessTransition {
    private SuccessTransition() {
    }

    /**
     * @param rows             every model row of the account as the caller knows it
     * @param accountUpdatedAt when the account's state was last written, or null when unknown (in memory)
     * @param at               when the success happened (a late write passes the original moment)
     */
    public static SuccessOutcome apply(Account account, List<ModelState> rows, Instant accountUpdatedAt,
            String modelKey, boolean modelTest, Instant at) {
        ModelState row = null;
        for (ModelState r : rows) {
            if (r.modelKey().equals(modelKey)) {
                row = r;
            }
        }
        if (row != null && row.updatedAt() != null && row.updatedAt().isAfter(at)) {
            row = null; // D-1: a failure on this model recorded after the success stays
        }
        SuccessOutcome outcome = CooldownRules.afterSuccess(account, row, modelTest, at);
        boolean accountNewer = accountUpdatedAt != null && accountUpdatedAt.isAfter(at);
        if (outcome.accountChanged() && accountNewer) {
            // D-1: the account was written after the success happened: its state is newer, keep it
            return new SuccessOutcome(account.status(), account.failure(), false, outcome.rowChange());
        }
        return outcome;
    }
}
