package dev.detour.gateway;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.failure.Failure;
import dev.detour.core.selection.GroupView;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Durable pool state as the gateway needs it. Writes a decision depends on are transactional
 * (C-3: the escalation check runs under the account's row lock with the model-row write).
 */
public interface PoolStore {
    PoolData load();

    long revision();

    /** Applies one recorded failure; returns the account and all its model rows afterwards. */
    StateChange recordFailure(long accountId, String modelKey, Failure failure, Instant now);

    /** Success clearing (C-5); only called when there is something to clear. */
    StateChange recordSuccess(long accountId, String modelKey, boolean modelTest, Instant now);

    record PoolData(long revision, List<Account> accounts, List<ModelState> modelStates, Map<Long, GroupView> groups,
            Map<String, KeyEntry> keysByHash, Map<Long, String> apiKeys) {
    }

    record StateChange(Account account, List<ModelState> rows, boolean escalated) {
    }
}
