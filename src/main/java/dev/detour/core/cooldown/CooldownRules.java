package dev.detour.core.cooldown;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.failure.Failure;
import dev.detour.core.failure.FailureClass;
import dev.detour.core.failure.Scope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * C-2 … C-5, F-5, F-6: state × failure (or success) × now → new state. Pure; the caller persists
 * the outcome (in one transaction with the account row locked, so C-3 sees concurrent writes).
 */
public final class CooldownRules {
    /** F-5: the quota channel hardcodes threshold 1; it never reads semantic_error_threshold. */
    static final int QUOTA_THRESHOLD = 1;

    private CooldownRules() {
    }

    /**
     * Records one failure.
     *
     * @param accountModelRows      every model row of this account (for the row to update and C-3)
     * @param serviceableModelKeys  C-3 denominator before removing paused keys; see
     *                              {@link Escalation#serviceableKeys}
     */
    public static FailureOutcome afterFailure(Account account, List<ModelState> accountModelRows,
            Set<String> serviceableModelKeys, Failure failure, Instant now) {
        if (failure == null || failure.failureClass() == FailureClass.NONE) {
            return FailureOutcome.unchanged(account); // F-1: a client error touches nothing
        }
        if (failure.isPermanent()) {
            return permanent(account, failure);
        }
        if (failure.quota()) {
            return quota(account, failure);
        }
        if (failure.scope() == Scope.MODEL && failure.modelKey() != null) {
            return modelScoped(account, accountModelRows, serviceableModelKeys, failure, now);
        }
        return accountScoped(account, failure, now);
    }

    /** C-5: what one success clears. {@code row} is this request's model row, or null. */
    public static SuccessOutcome afterSuccess(Account account, ModelState row, boolean modelTest, Instant now) {
        AccountStatus status = account.status();
        if (modelTest && (status == AccountStatus.ERROR || status == AccountStatus.WARNING)) {
            status = AccountStatus.OK; // a passing model test pulls an error/warning account back
        }
        boolean accountChanged = status != account.status() || !account.failure().isClean();
        return new SuccessOutcome(status, AccountFailureState.CLEAN, accountChanged, successRow(row, now));
    }

    private static RowChange successRow(ModelState row, Instant now) {
        if (row == null) {
            return RowChange.NONE;
        }
        if (row.status() != ModelStatus.PAUSED) {
            return RowChange.delete(row); // a healthy system holds only manual pauses
        }
        // A success must not silently overrule a manual pause: reset failure fields only.
        return ModelRows.hasFailureFields(row) ? RowChange.upsert(ModelRows.resetFailureFields(row, now))
                : RowChange.NONE;
    }

    /** F-1: the credential is void — revoked, no backoff window. */
    private static FailureOutcome permanent(Account account, Failure failure) {
        AccountFailureState state = AccountStates.recordLast(account.failure(), failure);
        return FailureOutcome.of(account, AccountStatus.REVOKED, state, null, false);
    }

    /** F-5: one account-level semantic failure with threshold 1; clears the retry-later traces. */
    private static FailureOutcome quota(Account account, Failure failure) {
        AccountFailureState state = AccountStates.recordLast(account.failure(), failure);
        AccountStatus status = account.status();
        if (status == AccountStatus.REVOKED || status == AccountStatus.PAUSED) {
            return FailureOutcome.of(account, status, state, null, false); // F-6: never touched
        }
        Streak streak = AccountStates.streak(state).next(failure.fingerprint(), QUOTA_THRESHOLD);
        state = AccountStates.clearTransient(AccountStates.withStreak(state, streak));
        if (streak.reached(QUOTA_THRESHOLD) && account.failurePolicy().errorStatusEnabled()) {
            status = AccountStatus.ERROR;
        }
        return FailureOutcome.of(account, status, state, null, false);
    }

    /** C-2: account-scoped — next_retry_at = cooldown_until = window; the account streak is cleared. */
    private static FailureOutcome accountScoped(Account account, Failure failure, Instant now) {
        AccountFailureState state = AccountStates.countTransient(AccountStates.recordLast(account.failure(), failure));
        Instant until = CooldownWindow.until(account.failurePolicy(), failure, now);
        if (until != null) {
            state = AccountStates.coolUntil(state, until);
        }
        state = AccountStates.withStreak(state, Streak.NONE);
        return FailureOutcome.of(account, account.status(), state, null, false);
    }

    /** C-2 + C-3: the model row takes the cooldown and the streak; the account only counts. */
    private static FailureOutcome modelScoped(Account account, List<ModelState> rows, Set<String> serviceable,
            Failure failure, Instant now) {
        Instant until = CooldownWindow.until(account.failurePolicy(), failure, now);
        ModelState before = Escalation.find(rows, failure.modelKey());
        if (before == null) {
            before = ModelState.fresh(account.id(), failure.modelKey(), ModelStatus.OK, now);
        }
        ModelState row = ModelFailure.apply(before, account, failure, until, now);
        AccountFailureState state = AccountStates.countTransient(AccountStates.recordLast(account.failure(), failure));
        // C-3: escalation is the transition into an account cooldown; a failure that lands while the
        // account already cools (a request picked before the escalation) does not escalate again
        boolean alreadyCooling = account.failure().cooldownUntil() != null && account.failure().cooldownUntil().isAfter(now);
        boolean escalated = until != null && !alreadyCooling
                && Escalation.allUnavailable(withKey(serviceable, failure.modelKey()), replaced(rows, row), now);
        if (escalated) {
            state = AccountStates.coolUntil(state, AccountFailureState.later(state.cooldownUntil(), until));
        }
        return FailureOutcome.of(account, account.status(), state, row, escalated);
    }

    private static Set<String> withKey(Set<String> keys, String key) {
        if (keys.contains(key)) {
            return keys;
        }
        Set<String> copy = new LinkedHashSet<>(keys);
        copy.add(key);
        return copy;
    }

    private static List<ModelState> replaced(List<ModelState> rows, ModelState row) {
        List<ModelState> copy = new ArrayList<>();
        for (ModelState r : rows) {
            if (!r.modelKey().equals(row.modelKey())) {
                copy.add(r);
            }
        }
        copy.add(row);
        return copy;
    }
}
