package dev.detour.admin;

import dev.detour.admin.port.Transactions;
import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.ValidationException;
import dev.detour.core.selection.GroupView;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.port.PoolStore.StateChange;
import dev.detour.recovery.BatchTests;
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
    private final BatchTests batches;
    private final Clock clock;

    /** {@code blocked}: accounts under an operator's block (S-10), which recover-all leaves alone. */
    public RecoveryAdmin(Transactions transactions, AuditLog audit, PoolSnapshot snapshot, ModelTester tester,
            RecoveryStore store, RecoveryScheduler scheduler, LongPredicate blocked, BatchTests batches, Clock clock) {
        this.transactions = transactions;
        this.audit = audit;
        this.snapshot = snapshot;
        this.tester = tester;
        this.store = store;
        this.scheduler = scheduler;
        this.blocked = blocked;
        this.batches = batches;
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
        return reactivate(actor, ids, "recovery.recover_all", AdminJson.JSON.createObjectNode(), now);
    }

    /**
     * W-3: starts a batch test of {@code model} on the given accounts, or on a group's, or on every account
     * (both null); archived accounts are left out. Audited with the model and how many accounts it tests.
     */
    public BatchTests.Batch startBatch(String actor, String model, List<Long> accountIds, String group) {
        PoolSnapshot.View view = snapshot.view();
        List<BatchTests.Target> targets = new ArrayList<>();
        if (accountIds != null) {
            for (long id : accountIds) {
                Account a = account(id);
                targets.add(new BatchTests.Target(a, groupName(view, a)));
            }
        } else {
            Long groupId = group == null ? null : groupId(view, group);
            for (Account a : view.accounts()) {
                if (!a.archived() && (groupId == null || a.groupId() == groupId)) {
                    targets.add(new BatchTests.Target(a, groupName(view, a)));
                }
            }
        }
        BatchTests.Batch batch = batches.start(model, targets);
        String after = AdminJson.JSON.createObjectNode().put("batch", batch.id()).put("model", batch.model())
                .put("accounts", targets.size()).toString();
        transactions.inTransaction(t -> {
            audit.record(t, actor, "account.batch_test", "recovery", 0, null, after);
            return null;
        });
        return batch;
    }

    /** The groups a batch may be limited to, by name (the console's choice). */
    public List<String> groupNames() {
        return snapshot.view().groups().values().stream().map(GroupView::name).filter(n -> n != null).sorted().toList();
    }

    public BatchTests.Batch batch(String id) {
        return batches.get(id).orElseThrow(() -> new NotFoundException("no batch test " + id));
    }

    /**
     * W-3 "recover those that passed": the full reactivation of {@link #recover} for every account whose test
     * in the batch passed, in one transaction and one audit row; paused and revoked accounts are left as they are.
     */
    public List<Long> recoverPassed(String actor, String batchId) {
        BatchTests.Batch batch = batch(batchId);
        List<Long> ids = new ArrayList<>();
        for (long id : batch.passed()) {
            Account a = snapshot.view().byId().get(id);
            if (a != null && a.status() != AccountStatus.PAUSED && a.status() != AccountStatus.REVOKED) {
                ids.add(id);
            }
        }
        return reactivate(actor, ids, "recovery.recover_passed",
                AdminJson.JSON.createObjectNode().put("batch", batchId), clock.instant());
    }

    /** Reactivates the accounts in one transaction with one audit row naming those it brought back. */
    private List<Long> reactivate(String actor, List<Long> ids, String action,
            ObjectNode after, Instant now) {
        List<StateChange> changes = transactions.inTransaction(t -> {
            List<StateChange> done = new ArrayList<>();
            for (long id : ids) {
                t.recovery().reactivate(id, now).ifPresent(done::add);
            }
            after.set("accounts", AdminJson.JSON.valueToTree(done.stream().map(c -> c.account().id()).toList()));
            audit.record(t, actor, action, "recovery", 0, null, after.toString());
            return done;
        });
        changes.forEach(snapshot::apply);
        return changes.stream().map(c -> c.account().id()).toList();
    }

    private static String groupName(PoolSnapshot.View view, Account account) {
        GroupView g = view.groups().get(account.groupId());
        return g == null ? null : g.name();
    }

    private static long groupId(PoolSnapshot.View view, String name) {
        return view.groups().values().stream().filter(g -> name.equals(g.name())).map(GroupView::id).findFirst()
                .orElseThrow(() -> new ValidationException("validation.batch_test.group", "group",
                        "no group named " + name));
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
