package dev.detour.core.cooldown;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import java.util.ArrayList;
import java.util.List;

/** the two recovery actions as pure state changes. */
public final class RecoveryOps {
    private RecoveryOps() {
    }

    /**
     * What a recovery does to the account: its new status and failure columns, the model rows to
     * delete, and whether anything is to be written at all.
     */
    public record Recovery(boolean applied, AccountStatus status, AccountFailureState failure,
            List<ModelState> rowsToDelete) {
        public Recovery {
            rowsToDelete = List.copyOf(rowsToDelete);
        }

        public Account applyTo(Account account) {
            return account.withStatus(status).withFailure(failure);
        }
    }

    /**
     * Scheduled recovery and "recover all": status ok, every counter, window, streak and detail
     * cleared, every non-paused model row deleted. Never for paused (automation may only undo
     * automation), revoked (never auto-recovered) or config_error (D-4) accounts; then nothing is applied.
     */
    public static Recovery fullReactivation(Account account, List<ModelState> rows) {
        if (untouchable(account)) {
            return new Recovery(false, account.status(), account.failure(), List.of());
        }
        List<ModelState> delete = new ArrayList<>();
        for (ModelState row : rows) {
            if (row.status() != ModelStatus.PAUSED) {
                delete.add(row);
            }
        }
        boolean applied = account.status() != AccountStatus.OK || !account.failure().isClean() || !delete.isEmpty();
        return new Recovery(applied, AccountStatus.OK, AccountFailureState.CLEAN, delete);
    }

    /**
     * A passing explicit per-account test clicked by a person: the account columns only, never sibling
     * model rows (the tested model's row was already handled by {@link CooldownRules#afterSuccess}).
     * A person's test may bring back a paused or revoked account: it is how a user finds out it works.
     */
    public static Recovery explicitTestRecovery(Account account) {
        boolean applied = account.status() != AccountStatus.OK || !account.failure().isClean();
        return new Recovery(applied, AccountStatus.OK, AccountFailureState.CLEAN, List.of());
    }

    /**
     * The healthcheck's explicit-test recovery: like {@link #explicitTestRecovery} but run by
     * automation, so a paused or revoked account is left alone.
     */
    public static Recovery healthcheckRecovery(Account account) {
        if (untouchable(account)) {
            return new Recovery(false, account.status(), account.failure(), List.of());
        }
        return explicitTestRecovery(account);
    }

    /**
     * Automation may only undo automation: never a pause or a revocation, and never an account it
     * cannot read (D-4: an unreadable status may be a pause written by a newer build).
     */
    private static boolean untouchable(Account account) {
        return account.status() == AccountStatus.PAUSED || account.status() == AccountStatus.REVOKED
                || account.hasConfigError();
    }
}
