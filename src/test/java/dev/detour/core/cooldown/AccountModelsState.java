package dev.detour.core.cooldown;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.failure.Failure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** An in-memory account with its model rows, applying outcomes the way the store would. */
final class AccountModelsState {
    Account account;
    final Map<String, ModelState> rows = new LinkedHashMap<>();

    AccountModelsState(Account account) {
        this.account = account;
    }

    List<ModelState> rows() {
        return new ArrayList<>(rows.values());
    }

    ModelState row(String key) {
        return rows.get(key);
    }

    FailureOutcome fail(Failure failure, Instant now) {
        Set<String> serviceable = Escalation.serviceableKeys(account.mappings(), rows.keySet(), List.of(),
                failure.modelKey());
        return fail(failure, serviceable, now);
    }

    FailureOutcome fail(Failure failure, Set<String> serviceable, Instant now) {
        FailureOutcome outcome = CooldownRules.afterFailure(account, rows(), serviceable, failure, now);
        account = outcome.applyTo(account);
        if (outcome.modelRow() != null) {
            rows.put(outcome.modelRow().modelKey(), outcome.modelRow());
        }
        return outcome;
    }

    SuccessOutcome succeed(String modelKey, boolean modelTest, Instant now) {
        SuccessOutcome outcome = CooldownRules.afterSuccess(account, rows.get(modelKey), modelTest, now);
        account = outcome.applyTo(account);
        apply(outcome.rowChange());
        return outcome;
    }

    void apply(RowChange change) {
        switch (change.action()) {
            case UPSERT -> rows.put(change.row().modelKey(), change.row());
            case DELETE -> rows.remove(change.row().modelKey());
            case NONE -> { }
        }
    }

    long unavailableModels(Instant now) {
        return rows.values().stream().filter(r -> r.unavailableAt(now)).count();
    }
}
