package dev.detour.core.cooldown;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.ModelState;

/**
 * The state after one recorded failure. Write it in one transaction with the account row locked
 * (C-3) when {@code changed}. The caller also does the account's error_count++ (not part of this).
 *
 * @param status         the account status to store
 * @param accountFailure the account-level failure columns to store
 * @param modelRow       the model row to upsert, or null when the failure did not touch one
 * @param escalated      C-3 wrote an account-level cooldown after a model-scoped failure
 * @param changed        anything differs from the input (a None-class failure changes nothing)
 */
public record FailureOutcome(
        AccountStatus status,
        AccountFailureState accountFailure,
        ModelState modelRow,
        boolean escalated,
        boolean changed) {

    static FailureOutcome unchanged(Account account) {
        return new FailureOutcome(account.status(), account.failure(), null, false, false);
    }

    static FailureOutcome of(Account before, AccountStatus status, AccountFailureState failure, ModelState row,
            boolean escalated) {
        boolean changed = status != before.status() || !failure.equals(before.failure()) || row != null;
        return new FailureOutcome(status, failure, row, escalated, changed);
    }

    /** The account with the new status and failure columns (model rows live apart). */
    public Account applyTo(Account account) {
        return account.withStatus(status).withFailure(accountFailure);
    }
}
