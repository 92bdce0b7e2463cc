package dev.detour.testkit;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.cooldown.FailureOutcome;
import dev.detour.core.cooldown.FailureTransition;
import dev.detour.core.cooldown.SuccessOutcome;
import dev.detour.core.cooldown.SuccessTransition;
import dev.detour.core.failure.Failure;
import dev.detour.core.selection.GroupView;
import dev.detour.core.selection.ModelStateKey;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.port.PoolStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pool store in memory, for tests of the gateway without a database. It decides nothing itself:
 * failures and successes go through the same pure {@link FailureTransition} and {@link SuccessTransition}
 * as the MyBatis store, one at a time (the lock stands for the row lock), idempotent by write id (D-1).
 */
public final class InMemoryPoolStore implements PoolStore {
    private final Map<Long, Account> accounts = new LinkedHashMap<>();
    private final Map<Long, Instant> accountUpdatedAt = new HashMap<>();
    private final Map<ModelStateKey, ModelState> rows = new LinkedHashMap<>();
    private final Map<Long, GroupView> groups = new HashMap<>();
    private final Map<String, KeyEntry> keysByHash = new HashMap<>();
    private final Map<Long, String> apiKeys = new HashMap<>();
    private final Map<Long, Map<String, Instant>> served = new HashMap<>();
    private final Set<String> writeIds = new HashSet<>();
    private long revision = 1;

    /** Adds (or replaces) an account; its group exists with ratio 1 unless added otherwise. */
    public synchronized InMemoryPoolStore account(Account account, String apiKey) {
        accounts.put(account.id(), account);
        apiKeys.put(account.id(), apiKey);
        groups.putIfAbsent(account.groupId(), new GroupView(account.groupId(), GroupView.RATIO_ONE, null));
        revision++;
        return this;
    }

    public synchronized InMemoryPoolStore group(GroupView group) {
        groups.put(group.id(), group);
        revision++;
        return this;
    }

    /** A Detour key, looked up by the SHA-256 hex of the presented key. */
    public synchronized InMemoryPoolStore key(String keyHash, KeyEntry key) {
        keysByHash.put(keyHash, key);
        revision++;
        return this;
    }

    /** C-3: the account served this model key at {@code at}. */
    public synchronized InMemoryPoolStore served(long accountId, String modelKey, Instant at) {
        served.computeIfAbsent(accountId, id -> new HashMap<>()).put(modelKey, at);
        return this;
    }

    public synchronized Account account(long id) {
        return accounts.get(id);
    }

    public synchronized ModelState row(long accountId, String modelKey) {
        return rows.get(new ModelStateKey(accountId, modelKey));
    }

    @Override
    public synchronized PoolData load() {
        Map<Long, Set<String>> servedKeys = new HashMap<>();
        served.forEach((id, keys) -> servedKeys.put(id, Set.copyOf(keys.keySet())));
        return new PoolData(revision, List.copyOf(accounts.values()), List.copyOf(rows.values()), Map.copyOf(groups),
                Map.copyOf(keysByHash), Map.copyOf(apiKeys), servedKeys);
    }

    @Override
    public synchronized long revision() {
        return revision;
    }

    @Override
    public synchronized StateChange recordFailure(String writeId, long accountId, String modelKey, Failure failure,
            Instant at) {
        Account account = existing(accountId);
        FailureOutcome outcome = seen(writeId) ? null : FailureTransition.apply(account, rowsOf(accountId),
                servedSince(accountId, FailureTransition.servedSince(at)), modelKey, failure, at);
        if (outcome == null || !outcome.changed()) {
            return unchanged(account);
        }
        Account after = outcome.applyTo(account);
        accounts.put(accountId, after);
        accountUpdatedAt.put(accountId, at);
        if (outcome.modelRow() != null) {
            rows.put(new ModelStateKey(accountId, outcome.modelRow().modelKey()), outcome.modelRow());
        }
        revision++;
        return new StateChange(after, rowsOf(accountId), outcome.escalated());
    }

    @Override
    public synchronized StateChange recordSuccess(String writeId, long accountId, String modelKey, boolean modelTest,
            Instant at) {
        Account account = existing(accountId);
        SuccessOutcome outcome = seen(writeId) ? null : SuccessTransition.apply(account, rowsOf(accountId),
                accountUpdatedAt.get(accountId), modelKey, modelTest, at);
        if (outcome == null || !outcome.changed()) {
            return unchanged(account);
        }
        Account after = outcome.applyTo(account);
        if (outcome.accountChanged()) {
            accounts.put(accountId, after);
            accountUpdatedAt.put(accountId, at);
        }
        switch (outcome.rowChange().action()) {
            case DELETE -> rows.remove(new ModelStateKey(accountId, outcome.rowChange().row().modelKey()));
            case UPSERT -> rows.put(new ModelStateKey(accountId, outcome.rowChange().row().modelKey()),
                    outcome.rowChange().row());
            default -> {
            }
        }
        revision++;
        return new StateChange(after, rowsOf(accountId), false);
    }

    /** D-1: a write id applied before changes nothing the second time. */
    private boolean seen(String writeId) {
        return writeId != null && !writeIds.add(writeId);
    }

    private StateChange unchanged(Account account) {
        return new StateChange(account, rowsOf(account.id()), false);
    }

    private Account existing(long accountId) {
        Account account = accounts.get(accountId);
        if (account == null) {
            throw new IllegalStateException("account " + accountId + " no longer exists");
        }
        return account;
    }

    private List<ModelState> rowsOf(long accountId) {
        List<ModelState> list = new ArrayList<>();
        rows.values().stream().filter(r -> r.accountId() == accountId).forEach(list::add);
        return list;
    }

    private Set<String> servedSince(long accountId, Instant since) {
        Set<String> keys = new HashSet<>();
        served.getOrDefault(accountId, Map.of()).forEach((key, at) -> {
            if (!at.isBefore(since)) {
                keys.add(key);
            }
        });
        return keys;
    }
}
