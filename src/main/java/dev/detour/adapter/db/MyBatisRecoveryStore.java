package dev.detour.adapter.db;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.RecoveryRule;
import dev.detour.core.cluster.LeaderTerm;
import dev.detour.core.cooldown.RecoveryOps;
import dev.detour.gateway.port.PoolStore.StateChange;
import dev.detour.recovery.RecoveryCandidate;
import dev.detour.recovery.RecoveryStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.ibatis.session.SqlSession;

/**
 * {@link RecoveryStore} on MariaDB. Recovery writes lock the account row like the failure engine
 * (so a concurrent failure is never overwritten by a stale read) and bump the pool revision. The
 * session-level statics let an admin use case add its audit row in the same transaction.
 */
public final class MyBatisRecoveryStore implements RecoveryStore {
    public static final String PROBES_PAUSED = "recovery.probes_paused";
    private final Database database;

    public MyBatisRecoveryStore(Database database) {
        this.database = database;
    }

    @Override
    public List<RecoveryCandidate> candidates() {
        return database.read(s -> s.getMapper(RecoveryMapper.class).selectCandidates().stream()
                .map(MyBatisRecoveryStore::candidate).toList());
    }

    private static RecoveryCandidate candidate(RecoveryCandidateRow row) {
        AccountStatus status;
        try {
            status = AccountStatus.fromWire(row.status());
        } catch (RuntimeException e) {
            status = AccountStatus.ERROR;
        }
        // a corrupt stored rule reads as off, so one bad config never breaks the loop
        return new RecoveryCandidate(row.id(), status, row.nextRetryAt(), row.cooldownUntil(), row.hasModelFailures(),
                AccountJsonColumns.readRecovery(row.recoveryJson()).orElse(RecoveryRule.OFF));
    }

    @Override
    public Optional<StateChange> reactivate(long accountId, Instant now) {
        return database.inTransaction(s -> reactivate(s, accountId, now));
    }

    @Override
    public Optional<StateChange> testRecovery(long accountId, boolean byPerson, Instant now) {
        return database.inTransaction(s -> testRecovery(s, accountId, byPerson, now));
    }

    /** Full reactivation: status ok, every trace cleared, non-paused model rows deleted; never paused/revoked. */
    public static Optional<StateChange> reactivate(SqlSession s, long accountId, Instant now) {
        PoolStateMapper state = s.getMapper(PoolStateMapper.class);
        Account account = lockedAccount(s, accountId);
        if (account == null) {
            return Optional.empty();
        }
        List<ModelState> rowsBefore = rowsOf(state, accountId);
        RecoveryOps.Recovery recovery = RecoveryOps.fullReactivation(account, rowsBefore);
        if (!recovery.applied() || s.getMapper(RecoveryMapper.class).updateRecoveredAccount(
                AccountFailureRow.of(accountId, recovery.status(), recovery.failure(), now)) == 0) {
            return Optional.empty();
        }
        for (ModelState row : recovery.rowsToDelete()) {
            state.deleteModelState(accountId, row.modelKey());
        }
        state.bumpRevision();
        StateChange change = new StateChange(recovery.applyTo(account), rowsOf(state, accountId), false);
        AlertOutbox.account(s, account, rowsBefore, change.account(), change.rows(), now); // W-1
        return Optional.of(change);
    }

    /** Explicit-test recovery: the account columns only, never sibling model rows. */
    public static Optional<StateChange> testRecovery(SqlSession s, long accountId, boolean byPerson, Instant now) {
        PoolStateMapper state = s.getMapper(PoolStateMapper.class);
        Account account = lockedAccount(s, accountId);
        if (account == null) {
            return Optional.empty();
        }
        RecoveryOps.Recovery recovery = byPerson ? RecoveryOps.explicitTestRecovery(account)
                : RecoveryOps.healthcheckRecovery(account);
        if (!recovery.applied()) {
            return Optional.empty();
        }
        AccountFailureRow row = AccountFailureRow.of(accountId, recovery.status(), recovery.failure(), now);
        int written = byPerson ? state.updateAccountFailure(row)
                : s.getMapper(RecoveryMapper.class).updateRecoveredAccount(row);
        if (written == 0) {
            return Optional.empty();
        }
        state.bumpRevision();
        List<ModelState> rows = rowsOf(state, accountId);
        StateChange change = new StateChange(recovery.applyTo(account), rows, false);
        AlertOutbox.account(s, account, rows, change.account(), rows, now); // W-1: the account columns only
        return Optional.of(change);
    }

    @Override
    public boolean probesPaused() {
        return database.read(s -> "true".equals(s.getMapper(RecoveryMapper.class).selectSetting(PROBES_PAUSED)));
    }

    public static void setProbesPaused(SqlSession s, boolean paused, Instant now) {
        s.getMapper(RecoveryMapper.class).upsertSetting(PROBES_PAUSED, Boolean.toString(paused), now);
    }

    @Override
    public LeaseHold holdLease(String name, String holder, Instant now, Instant expiresAt) {
        return database.inTransaction(s -> {
            RecoveryMapper m = s.getMapper(RecoveryMapper.class);
            m.insertLeaseIgnore(new LeaseRow(name, holder, expiresAt));
            LeaseRow current = m.selectLeaseForUpdate(name);
            Instant prior = current == null ? null : current.expiresAt();
            if (current != null && !LeaderTerm.mayHold(current.holder(), current.expiresAt(), holder, now)) {
                return new LeaseHold(false, prior); // someone alive holds it
            }
            m.updateLease(new LeaseRow(name, holder, expiresAt)); // renew, or take over an expired holder
            return new LeaseHold(true, prior);
        });
    }

    @Override
    public void releaseLease(String name, String holder) {
        database.inTransaction(s -> s.getMapper(RecoveryMapper.class).deleteLease(name, holder));
    }

    @Override
    public Optional<String> leaseHolder(String name, Instant now) {
        return Optional.ofNullable(database.read(s -> s.getMapper(RecoveryMapper.class).selectLeaseHolder(name, now)));
    }

    private static Account lockedAccount(SqlSession s, long accountId) {
        if (s.getMapper(PoolStateMapper.class).lockAccount(accountId) == null) {
            return null;
        }
        return AccountRows.decode(s.getMapper(AccountMapper.class).selectById(accountId)).account();
    }

    private static List<ModelState> rowsOf(PoolStateMapper state, long accountId) {
        return state.selectModelStates(accountId).stream().map(ModelStateRow::toState).toList();
    }
}
