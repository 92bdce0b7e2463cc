package dev.detour.core.cooldown;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.AccountStatus;

/**
 * The state after one success (C-5). When {@code accountChanged} is false and the row change is
 * NONE, there is nothing to write — the hot path does no database round trip (N-2).
 */
public record SuccessOutcome(
        AccountStatus status,
        AccountFailureState accountFailure,
        boolean accountChanged,
        RowChange rowChange) {

    public boolean changed() {
        return accountChanged || rowChange.changes();
    }

    public Account applyTo(Account account) {
        return account.withStatus(status).withFailure(accountFailure);
    }
}
