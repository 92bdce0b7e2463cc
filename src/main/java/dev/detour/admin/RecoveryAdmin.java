package dev.detour.admin;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.gateway.PoolSnapshot;
import dev.detour.gateway.PoolStore.StateChange;
import dev.detour.recovery.LeaderLease;
import dev.detour.recovery.ModelTestResult;
import dev.detour.recovery.ModelTester;
import dev.detour.recovery.RecoveryCandidate;
import dev.detour.recovery.RecoveryScheduler;
import dev.detour.recovery.RecoveryStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * one-click operations behind the console and the admin API: test now, recover one
 * account, recover all ordinary failures, pause/resume background probes. Each is audited in
 * its own write's transaction; each write is applied to this instance's snapshot at once (O-4).
 */
public final class RecoveryAdmin {
    /** The status of the recovery machinery as the console and {@code GET /admin/api/recovery} show it. */
    public record Status(boolean probesPaused, String leader, boolean thisInstanceLeads,
            RecoveryScheduler.TickReport lastTick, int probesRunning, int probesLastMinute, int candidates) {
    }

    public record Recovered(long accountId, boolean recovered, String reason) {
    }

    private final Transactions transactions;
    private final AuditLog audit;
    private final PoolSnapshot snapshot;
    private final ModelTester tester;
    private final RecoveryStore store;
    private final RecoveryScheduler scheduler;
    private final LongPredicate blocked;
    private final Clock clock;

    /** {@code blocked}: accounts under an operator's block (S-10), which recover-all leaves alone. */
    public RecoveryAdmin(Transactions transactions, AuditLog audit, PoolSnapshot snapshot, ModelTester tester,
            RecoveryStore store, RecoveryScheduler scheduler, LongPredicate blocked, Clock clock) {
        this.transactions = transactions;
        this.audit = audit;
        this.snapshot = snapshot;
        this.tester = tester;
        this.store = store;
        this.scheduler = scheduler;
        this.blocked = blocked;
        this.clock = clock;
    }

    /** an explicit test; works on paused accounts (it is how a person finds out one came back). */
    public ModelTestResult test(String actor, long accountId, String model) {
        ModelTestResult result = tester.test(account(accountId), model, ModelTester.Mode.EXPLICIT);
        String after = AdminJson.JSON.createObjectNode().put("model", result.model()).put("ok", result.ok())
                .put("status", result.status()).put("latency_ms", result.latencyMs()).toString();
        transactions.inTransaction(t -> {
            audit.record(t, actor, "account.test", "account", accountId, null, after);
            return null;
        });
        return result;
    }

    /** Full reactivation of one account by a person; paused and revoked accounts are left as they are. */
    public Recovered recover(String actor, long accountId) {
        Account account = account(accountId);
        if (account.status() == AccountStatus.PAUSED || account.status() == AccountStatus.REVOKED) {
            return new Recovered(accountId, false, account.status().wire());
        }
        Instant now = clock.instant();
        Optional<StateChange> change = transactions.inTransaction(t -> {
            Optional<StateChange> c = t.recovery().reactivate(accountId, now);
            c.ifPresent(x -> audit.record(t, actor, "account.recover", "account", accountId,
                    "{\"status\":\"" + account.status().wire() + "\"}", "{\"status\":\"ok\"}"));
            return c;
        });
        change.ifPresent(snapshot::apply);
        return new Recovered(accountId, change.isPresent(), change.isPresent() ? null : "nothing_to_recover");
    }

    /** every ordinary failure at once — never revoked, paused or blocked accounts. */
    public List<Long> recoverAll(String actor) {
        Instant now = clock.instant();
        List<Long> ids = new ArrayList<>();
        for (RecoveryCandidate c : store.candidates()) {
            if (c.needsRecovery() && c.status() != AccountStatus.PAUSED && !blocked.test(c.accountId())) {
                ids.add(c.accountId());
            }
        }
        List<StateChange> changes = transactions.inTransaction(t -> {
            List<StateChange> done = new ArrayList<>();
            for (long id : ids) {
                t.recovery().reactivate(id, now).ifPresent(done::add);
            }
            String after = AdminJson.JSON.valueToTree(done.stream().map(c -> c.account().id()).toList()).toString();
            audit.record(t, actor, "recovery.recover_all", "recovery", 0, null, "{\"accounts\":" + after + "}");
            return done;
        });
        changes.forEach(snapshot::apply);
        return changes.stream().map(c -> c.account().id()).toList();
    }

    public void pauseProbes(String actor) {
        setProbesPaused(actor, true);
    }

    public void resumeProbes(String actor) {
        setProbesPaused(actor, false);
    }

    private void setProbesPaused(String actor, boolean paused) {
        boolean before = store.probesPaused();
        transactions.inTransaction(t -> {
            t.recovery().setProbesPaused(paused, clock.instant());
            audit.record(t, actor, paused ? "recovery.probes_pause" : "recovery.probes_resume", "recovery", 0,
                    "{\"probes_paused\":" + before + "}", "{\"probes_paused\":" + paused + "}");
            return null;
        });
    }

    public Status status() {
        Instant now = clock.instant();
        Optional<String> leader = store.leaseHolder(LeaderLease.NAME, now);
        int candidates = (int) store.candidates().stream().filter(RecoveryCandidate::needsRecovery).count();
        boolean mine = scheduler != null && leader.isPresent() && leader.get().equals(scheduler.lease().holder());
        return new Status(store.probesPaused(), leader.orElse(null), mine,
                scheduler == null ? null : scheduler.lastReport(),
                scheduler == null ? 0 : scheduler.budget().running(),
                scheduler == null ? 0 : scheduler.budget().startedInLastMinute(now), candidates);
    }

    /** Accounts that need recovery now, for the console's list. */
    public List<Account> accountsInNeed() {
        List<Account> accounts = new ArrayList<>();
        for (RecoveryCandidate c : store.candidates()) {
            Account a = snapshot.view().byId().get(c.accountId());
            if (c.needsRecovery() && a != null) {
                accounts.add(a);
            }
        }
        return accounts;
    }

    private Account account(long accountId) {
        Account account = snapshot.view().byId().get(accountId);
        if (account == null) {
            snapshot.reload(); // created a moment ago on another instance?
            account = snapshot.view().byId().get(accountId);
        }
        if (account == null) {
            throw new NotFoundException("no account " + accountId);
        }
        return account;
    }
}
