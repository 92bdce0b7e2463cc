package dev.detour.recovery;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.RecoveryRule;
import dev.detour.core.cluster.LeaderTerm;
import dev.detour.core.recovery.ProbeSchedule;
import dev.detour.core.recovery.ProbeTarget;
import dev.detour.core.recovery.ScheduledTrigger;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.port.PoolStore.StateChange;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * every tick (30 s) the lease holder walks the candidates, keeps those that need recovery and
 * acts on their rule — scheduled: full reactivation when a configured time passed since the last
 * tick; healthcheck: a budgeted probe when due. The tick is a plain method of {@code now} (tests
 * call it with a controlled clock); the loop only calls it on a daemon thread. One account's
 * trouble (a corrupt rule reads as off, a failing write) never stops the loop for the others.
 */
public final class RecoveryScheduler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RecoveryScheduler.class);

    /** What one tick did (for status and tests). */
    public record TickReport(boolean leader, int candidates, int reactivated, int probesStarted,
            int probesDeferred) {
    }

    private final RecoveryStore store;
    private final PoolSnapshot snapshot;
    private final ModelTester tester;
    private final ProbeBudget budget;
    private final LeaderLease lease;
    private final Executor probeExecutor;
    private final ZoneId zone;
    private final Duration tickEvery;
    private final Map<Long, Instant> lastProbe = new ConcurrentHashMap<>();
    private volatile Instant previousTick;
    private volatile TickReport lastReport = new TickReport(false, 0, 0, 0, 0);
    private ScheduledExecutorService loop;

    public RecoveryScheduler(RecoveryStore store, PoolSnapshot snapshot, ModelTester tester, ProbeBudget budget,
            LeaderLease lease, Executor probeExecutor, ZoneId zone, Duration tickEvery) {
        this.store = store;
        this.snapshot = snapshot;
        this.tester = tester;
        this.budget = budget;
        this.lease = lease;
        this.probeExecutor = probeExecutor;
        this.zone = zone;
        this.tickEvery = tickEvery;
    }

    /** Probes run on their own small pool of daemon threads, never on a request thread. */
    public static ExecutorService probeExecutor() {
        return Executors.newCachedThreadPool(RecoveryThreads.daemon("detour-recovery-probe"));
    }

    public synchronized void start(Clock clock) {
        if (loop != null) {
            return;
        }
        loop = Executors.newSingleThreadScheduledExecutor(RecoveryThreads.daemon("detour-recovery"));
        long millis = tickEvery.toMillis();
        loop.scheduleWithFixedDelay(() -> tickQuietly(clock.instant()), millis, millis, TimeUnit.MILLISECONDS);
    }

    /** Stops the loop without giving the lease up (what a crashed instance looks like to the others). */
    public synchronized void stopLoop() {
        if (loop != null) {
            loop.shutdownNow();
            loop = null;
        }
    }

    @Override
    public void close() {
        stopLoop();
        try {
            lease.release();
        } catch (RuntimeException e) {
            log.warn("recovery lease not released: {}", e.toString());
        }
    }

    private void tickQuietly(Instant now) {
        try {
            tick(now);
        } catch (RuntimeException e) {
            log.warn("recovery tick failed, trying again next tick: {}", e.toString());
        }
    }

    /** One tick at {@code now}; only the lease holder acts. */
    public synchronized TickReport tick(Instant now) {
        RecoveryStore.LeaseHold hold = lease.acquireOrRenew(now);
        if (!hold.held()) {
            previousTick = null; // a new leader starts its own interval
            lastReport = new TickReport(false, 0, 0, 0, 0);
            return lastReport;
        }
        // G-3: a leader that has just taken over continues from the dead holder's last tick
        Instant previous = previousTick == null ? LeaderTerm.firstWindowFrom(hold.priorExpiry(), now, tickEvery)
                : previousTick;
        previousTick = now;
        boolean probesPaused = store.probesPaused();
        Counts counts = new Counts();
        for (RecoveryCandidate candidate : store.candidates()) {
            if (!candidate.needsRecovery() || candidate.status() == AccountStatus.PAUSED) {
                continue; // automation may only undo automation
            }
            counts.candidates++;
            try {
                act(candidate, previous, now, probesPaused, counts);
            } catch (RuntimeException e) {
                log.warn("recovery of account {} failed this tick: {}", candidate.accountId(), e.toString());
            }
        }
        lastReport = new TickReport(true, counts.candidates, counts.reactivated, counts.started, counts.deferred);
        return lastReport;
    }

    /** Tallies of one tick. */
    private static final class Counts {
        private int candidates;
        private int reactivated;
        private int started;
        private int deferred;
    }

    private void act(RecoveryCandidate candidate, Instant previous, Instant now, boolean probesPaused, Counts counts) {
        RecoveryRule rule = candidate.rule();
        if (rule instanceof RecoveryRule.Scheduled scheduled) {
            if (ScheduledTrigger.fires(scheduled.times(), local(previous), local(now))) {
                Optional<StateChange> change = store.reactivate(candidate.accountId(), now);
                change.ifPresent(snapshot::apply);
                counts.reactivated += change.isPresent() ? 1 : 0;
            }
        } else if (rule instanceof RecoveryRule.Healthcheck healthcheck && !probesPaused
                && ProbeSchedule.due(lastProbe.get(candidate.accountId()), healthcheck.probeIntervalMinutes(), now)) {
            if (probe(candidate.accountId(), now)) {
                counts.started++;
            } else {
                counts.deferred++;
            }
        }
    }

    /** Starts one budgeted probe; false when the budget said no (tried again next tick). */
    private boolean probe(long accountId, Instant now) {
        Account account = snapshot.view().byId().get(accountId);
        if (account == null || account.hasConfigError()) { // D-4: nothing to probe until an operator repairs it
            return false;
        }
        Optional<String> model = ProbeTarget.choose(account, snapshot.view().rowsOf(accountId), now);
        if (model.isEmpty() || !budget.tryAcquire(now)) {
            return false;
        }
        lastProbe.put(accountId, now);
        try {
            probeExecutor.execute(() -> runProbe(account, model.get()));
        } catch (RejectedExecutionException e) {
            budget.release();
            return false;
        }
        return true;
    }

    private void runProbe(Account account, String model) {
        try {
            // pass → explicit-test recovery (account columns only); fail → recorded, wait for the next interval
            tester.test(account, model, ModelTester.Mode.HEALTHCHECK);
        } catch (RuntimeException e) {
            log.warn("healthcheck probe of account {} failed to run: {}", account.id(), e.toString());
        } finally {
            budget.release();
        }
    }

    private LocalDateTime local(Instant at) {
        return LocalDateTime.ofInstant(at, zone);
    }

    public boolean isLeader() {
        return lastReport.leader();
    }

    public TickReport lastReport() {
        return lastReport;
    }

    public ProbeBudget budget() {
        return budget;
    }

    public LeaderLease lease() {
        return lease;
    }
}
