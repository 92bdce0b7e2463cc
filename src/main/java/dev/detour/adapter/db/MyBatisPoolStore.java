package dev.detour.adapter.db;

import dev.detour.adapter.crypto.SecretBox;
import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.port.DetourKey;
import dev.detour.admin.KeyPolicies;
import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.cooldown.FailureOutcome;
import dev.detour.core.cooldown.FailureTransition;
import dev.detour.core.cooldown.RowChange;
import dev.detour.core.cooldown.SuccessOutcome;
import dev.detour.core.cooldown.SuccessTransition;
import dev.detour.core.failure.Failure;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.selection.GroupView;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.port.PoolStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.ibatis.session.SqlSession;

/**
 * {@link PoolStore} on MariaDB. A failure or a success is one transaction: lock the account row, read
 * it and its model rows, decide with the pure {@link FailureTransition} / {@link SuccessTransition},
 * write what they decided, bump the pool revision (C-3). No state rule lives here.
 */
public final class MyBatisPoolStore implements PoolStore {
    private final Database database;
    private final SecretBox secrets;

    public MyBatisPoolStore(Database database, SecretBox secrets) {
        this.database = database;
        this.secrets = secrets;
    }

    @Override
    public PoolData load() {
        return database.read(s -> {
            PoolStateMapper state = s.getMapper(PoolStateMapper.class);
            long revision = state.selectRevision();
            List<Account> accounts = new ArrayList<>();
            Map<Long, String> apiKeys = new HashMap<>();
            for (AccountRow row : s.getMapper(AccountMapper.class).selectActive()) {
                accounts.add(AccountRows.decode(row, secrets).account()); // D-4: never throws
                apiKeys.put(row.id(), openQuietly(row));
            }
            List<ModelState> rows = state.selectAllModelStates().stream().map(ModelStateRow::toState).toList();
            Map<Long, GroupView> groups = new HashMap<>();
            for (AccountGroup g : s.getMapper(GroupMapper.class).selectAll()) {
                groups.put(g.id(), new GroupView(g.id(), g.ratioPpm(), g.haltedUntil(), g.name(),
                        "on".equals(g.haltPolicy()), g.haltStreak(), g.haltReason())); // S-9
            }
            Map<String, KeyEntry> keys = new HashMap<>();
            for (DetourKey k : s.getMapper(KeyMapper.class).selectAll()) {
                var policy = KeyPolicies.readStored(k.policyJson()); // D-4: unreadable → refused, never unrestricted
                keys.put(k.keyHash(), new KeyEntry(k.id(), k.name(), k.enabled(), k.expiresAt(),
                        policy.orElse(KeyPolicy.UNRESTRICTED), policy.isEmpty() ? KeyPolicies.UNREADABLE : null));
            }
            Map<Long, Set<String>> served = new HashMap<>();
            // every served key whatever its age (the store has no clock); the locked write applies the 24 h window
            state.selectAllServedModelKeys(Instant.EPOCH).forEach(m -> served
                    .computeIfAbsent(m.accountId(), id -> new java.util.HashSet<>()).add(m.modelKey()));
            return new PoolData(revision, accounts, rows, groups, keys, apiKeys, served);
        });
    }

    /** A key that cannot be opened (wrong master key) must not stop the pool loading; the account is config_error (D-4). */
    private String openQuietly(AccountRow row) {
        try {
            return secrets.open(row.apiKeyCipher(), row.id());
        } catch (RuntimeException e) {
            return "";
        }
    }

    @Override
    public long revision() {
        return database.read(s -> s.getMapper(PoolStateMapper.class).selectRevision());
    }

    /**
     * One transaction: the ledger id (D-1: a retry of a committed write stops here), the account row
     * lock (C-3), the stored state, the pure {@link FailureTransition} on it, the write, the revision.
     */
    @Override
    public StateChange recordFailure(String writeId, long accountId, String modelKey, Failure failure, Instant at) {
        return database.inTransaction(s -> {
            PoolStateMapper state = s.getMapper(PoolStateMapper.class);
            Account account = lockedAccount(s, accountId);
            List<ModelState> rows = rowsOf(state, accountId);
            if (writeId != null && state.insertWriteId(writeId, at) == 0) {
                return new StateChange(account, rows, false);
            }
            FailureOutcome outcome = FailureTransition.apply(account, rows,
                    state.selectServedModelKeys(accountId, FailureTransition.servedSince(at)), modelKey, failure, at);
            if (!outcome.changed()) {
                return new StateChange(account, rows, false);
            }
            state.updateAccountFailure(AccountFailureRow.of(accountId, outcome.status(), outcome.accountFailure(), at));
            if (outcome.modelRow() != null) {
                state.upsertModelState(ModelStateRow.of(outcome.modelRow()));
            }
            state.bumpRevision();
            StateChange change = new StateChange(outcome.applyTo(account), rowsOf(state, accountId),
                    outcome.escalated());
            AlertOutbox.account(s, account, rows, change.account(), change.rows(), at); // W-1: with the change
            return change;
        });
    }

    /**
     * C-5 in one transaction. D-1: a success written late clears nothing another write changed after
     * it happened (the account row or the model row updated after {@code at} wins).
     */
    @Override
    public StateChange recordSuccess(String writeId, long accountId, String modelKey, boolean modelTest, Instant at) {
        return database.inTransaction(s -> {
            PoolStateMapper state = s.getMapper(PoolStateMapper.class);
            Account account = lockedAccount(s, accountId);
            List<ModelState> rows = rowsOf(state, accountId);
            if (writeId != null && state.insertWriteId(writeId, at) == 0) {
                return new StateChange(account, rows, false);
            }
            SuccessOutcome outcome = SuccessTransition.apply(account, rows, state.selectAccountUpdatedAt(accountId),
                    modelKey, modelTest, at);
            if (!outcome.changed()) {
                return new StateChange(account, rows, false);
            }
            if (outcome.accountChanged()) {
                state.updateAccountFailure(AccountFailureRow.of(accountId, outcome.status(), outcome.accountFailure(),
                        at));
            }
            RowChange change = outcome.rowChange();
            if (change.action() == RowChange.Action.DELETE) {
                state.deleteModelState(accountId, change.row().modelKey());
            } else if (change.action() == RowChange.Action.UPSERT) {
                state.upsertModelState(ModelStateRow.of(change.row()));
            }
            state.bumpRevision();
            StateChange after = new StateChange(outcome.applyTo(account), rowsOf(state, accountId), false);
            AlertOutbox.account(s, account, rows, after.account(), after.rows(), at); // W-1: with the change
            return after;
        });
    }

    @Override
    public void forgetWriteIds(Instant before) {
        database.inTransaction(s -> s.getMapper(PoolStateMapper.class).deleteWriteIdsBefore(before));
    }

    /** An account's model rows as stored (admin reads; not the request path). */
    public List<ModelState> modelRows(long accountId) {
        return database.read(s -> rowsOf(s.getMapper(PoolStateMapper.class), accountId));
    }

    private static Account lockedAccount(SqlSession s, long accountId) {
        Long locked = s.getMapper(PoolStateMapper.class).lockAccount(accountId);
        if (locked == null) {
            throw new IllegalStateException("account " + accountId + " no longer exists");
        }
        return AccountRows.decode(s.getMapper(AccountMapper.class).selectById(accountId)).account();
    }

    private static List<ModelState> rowsOf(PoolStateMapper state, long accountId) {
        return state.selectModelStates(accountId).stream().map(ModelStateRow::toState).toList();
    }
}
