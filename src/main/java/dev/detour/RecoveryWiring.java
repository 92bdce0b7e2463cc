package dev.detour;

import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.MyBatisBatchStore;
import dev.detour.adapter.db.MyBatisRecoveryStore;
import dev.detour.admin.RecoveryAdmin;
import dev.detour.admin.SiteSettings;
import dev.detour.config.DetourConfig;
import dev.detour.gateway.live.InstanceRegistry;
import dev.detour.recovery.BatchTests;
import dev.detour.recovery.LeaderLease;
import dev.detour.recovery.ModelTester;
import dev.detour.recovery.ProbeBudget;
import dev.detour.recovery.RecoveryScheduler;
import dev.detour.recovery.RouteChecks;
import java.time.Clock;
import java.time.ZoneId;
import java.util.concurrent.ExecutorService;

/** R-3…R-6 recovery: lease-held scheduler, budgeted probes on their own threads, one-click ops. */
record RecoveryWiring(RecoveryScheduler scheduler, ExecutorService probeExecutor, RecoveryAdmin admin,
        RouteChecks keyChecks) {

    static RecoveryWiring create(DetourConfig config, Database database, GatewayWiring gateway, AdminWiring admins,
            SiteSettings settings, Clock clock) {
        MyBatisRecoveryStore store = new MyBatisRecoveryStore(database);
        ModelTester tester = new ModelTester(gateway.upstream(), gateway.snapshot(), gateway.poolStore(), store,
                gateway.countedEvents(), clock);
        ExecutorService probeExecutor = RecoveryScheduler.probeExecutor();
        ProbeBudget budget = new ProbeBudget(() -> settings.current().probeBudgetPerMinute(),
                () -> settings.current().probeConcurrency());
        RecoveryScheduler scheduler = new RecoveryScheduler(store, gateway.snapshot(), tester, budget,
                LeaderLease.forTick(store, LeaderLease.newHolderId(), config.recoveryTick()),
                probeExecutor, ZoneId.systemDefault(), config.recoveryTick());
        // W-3: batch tests share the probe threads and the budget with the scheduler and the key checks
        // and live in the database, so every instance reads them; the registry says whether their runner still lives
        InstanceRegistry registry = gateway.load().registry();
        BatchTests batches = new BatchTests(tester, budget, probeExecutor, new MyBatisBatchStore(database, clock),
                registry.selfId(), id -> registry.instances().stream()
                        .anyMatch(i -> i.id().equals(id) && i.liveAt(registry.now())), clock);
        RecoveryAdmin admin = new RecoveryAdmin(admins.transactions(), admins.audit(), gateway.snapshot(),
                tester, store, scheduler, accountId -> false, batches, clock);
        // E-1 "check now" on /my: the same tester, budget and probe threads as the scheduler
        RouteChecks keyChecks = new RouteChecks(tester, budget, probeExecutor, clock, RouteChecks.KEY_COOLDOWN);
        return new RecoveryWiring(scheduler, probeExecutor, admin, keyChecks);
    }

    /** Stops the scheduler's loop, then any probe still running; the lease stays held until {@link #close()}. */
    void stopWork() {
        scheduler.stopLoop();
        probeExecutor.shutdownNow();
    }

    /** Stops the work (if not yet) and releases the leader lease (D-3: after the events are flushed). */
    void close() {
        stopWork();
        scheduler.close();
    }
}
