package dev.detour.adapter.db;

import dev.detour.adapter.crypto.SecretBox;
import dev.detour.admin.AccountRows;
import dev.detour.admin.KeyPolicies;
import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.cooldown.BreakerRules;
import dev.detour.core.cooldown.CooldownRules;
import dev.detour.core.cooldown.Escalation;
import dev.detour.core.cooldown.FailureOutcome;
import dev.detour.core.cooldown.RowChange;
import dev.detour.core.cooldown.SuccessOutcome;
import dev.detour.core.failure.Failure;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.selection.GroupView;
import dev.detour.gateway.KeyEntry;
import dev.detour.gateway.PoolStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.ibatis.session.SqlSession;

/**
 * {@link PoolStore} on MariaDB. A failure is one transaction: lock the account row, read it and
 * its model rows, decide with the pure {@link CooldownRules}, write, bump the pool revision (C-3).
 */
public final class MyBatisPoolStore implements PoolStore {
    private static final Duration SERVED_WINDOW = Duration.ofHours(24);
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
            for (GroupRow g : s.getMapper(GroupMapper.class).selectAll()) {
                groups.put(g.id(), new GroupView(g.id(), g.ratioPpm(), g.haltedUntil(), g.name(),
                        "on".equals(g.haltPolicy()), g.haltStreak(), g.haltReason())); // S-9
            }
            Map<String, KeyEntry> keys = new HashMap<>();
            for (KeyRow k : s.getMapper(KeyMapper.class).selectAll()) {
                var policy = KeyPolicies.readStored(k.policyJson()); // D-4: unreadable → refused, never unrestricted
                keys.put(k.keyHash(), new KeyEntry(k.id(), k.name(), k.enabled(), k.expiresAt(),
                        policy.orElse(KeyPolicy.UNRESTRICTED), policy.isEmpty() ? KeyPolicies.UNREADABLE : null));
            }
            return new PoolData(revision, accounts, rows, groups, keys, apiKeys);
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

    @Override
    public StateChange recordFailure(long accountId, String modelKey, Failure failure, Instant now) {
        return database.inTransaction(s -> {
            PoolStateMapper state = s.getMapper(PoolStateMapper.class);
            Account account = lockedAccount(s, accountId);
            List<ModelState> rows = rowsOf(state, accountId);
            Set<String> serviceable = Escalation.serviceableKeys(account.mappings(),
                    rows.stream().map(ModelState::modelKey).toList(),
                    state.selectServedModelKeys(accountId, now.minus(SERVED_WINDOW)), modelKey);
            // C-6: the optional breaker and exponential backoff ride on the same locked transaction
            FailureOutcome outcome = BreakerRules.afterFailure(account,
                    CooldownRules.afterFailure(account, rows, serviceable, failure, now), failure, now);
            if (!outcome.changed()) {
                return new StateChange(account, rows, false);
            }
            state.updateAccountFailure(AccountFailureRow.of(accountId, outcome.status(), outcome.accountFailure(), now));
            if (outcome.modelRow() != null) {
                state.upsertModelState(ModelStateRow.of(outcome.modelRow()));
            }
            state.bumpRevision();
            return new StateChange(outcome.applyTo(account), rowsOf(state, accountId), outcome.escalated());
        });
    }

    @Override
    public StateChange recordSuccess(long accountId, String modelKey, boolean modelTest, Instant now) {
        return database.inTransaction(s -> {
            PoolStateMapper state = s.getMapper(PoolStateMapper.class);
            Account account = lockedAccount(s, accountId);
            List<ModelState> rows = rowsOf(state, accountId);
            ModelState row = rows.stream().filter(r -> r.modelKey().equals(modelKey)).findFirst().orElse(null);
            SuccessOutcome outcome = CooldownRules.afterSuccess(account, row, modelTest, now);
            if (!outcome.changed()) {
                return new StateChange(account, rows, false);
            }
            if (outcome.accountChanged()) {
                state.updateAccountFailure(AccountFailureRow.of(accountId, outcome.status(), outcome.accountFailure(),
                        now));
            }
            RowChange change = outcome.rowChange();
            if (change.action() == RowChange.Action.DELETE) {
                state.deleteModelState(accountId, change.row().modelKey());
            } else if (change.action() == RowChange.Action.UPSERT) {
                state.upsertModelState(ModelStateRow.of(change.row()));
            }
            state.bumpRevision();
            return new StateChange(outcome.applyTo(account), rowsOf(state, accountId), false);
        });
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
