package dev.detour.gateway.port;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.failure.Failure;
import dev.detour.core.selection.GroupView;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Durable pool state as the gateway needs it. Writes a decision depends on are transactional
 * (C-3: the escalation check runs under the account's row lock with the model-row write).
 */
public interface PoolStore {
    PoolData load();

    long revision();

    /** Applies one recorded failure; returns the account and all its model rows afterwards. */
    default StateChange recordFailure(long accountId, String modelKey, Failure failure, Instant now) {
        return recordFailure(null, accountId, modelKey, failure, now);
    }

    /**
     * D-1: as above, possibly later than {@code at} and more than once: a write with a {@code writeId}
     * the store has applied before changes nothing (the id is kept in a ledger in the same transaction).
     */
    StateChange recordFailure(String writeId, long accountId, String modelKey, Failure failure, Instant at);

    /** Success clearing (C-5); only called when there is something to clear. */
    default StateChange recordSuccess(long accountId, String modelKey, boolean modelTest, Instant now) {
        return recordSuccess(null, accountId, modelKey, modelTest, now);
    }

    /** D-1: as above, idempotent by {@code writeId}; clears nothing written after {@code at}. */
    StateChange recordSuccess(String writeId, long accountId, String modelKey, boolean modelTest, Instant at);

    /** D-1: forgets ledger ids older than {@code before} (their writes can no longer be retried). */
    default void forgetWriteIds(Instant before) {
    }

    record PoolData(long revision, List<Account> accounts, List<ModelState> modelStates, Map<Long, GroupView> groups,
            Map<String, KeyEntry> keysByHash, Map<Long, String> apiKeys, Map<Long, Set<String>> served) {
    }

    record StateChange(Account account, List<ModelState> rows, boolean escalated) {
    }
}
