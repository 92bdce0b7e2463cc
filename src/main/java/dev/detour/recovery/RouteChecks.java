package dev.detour.recovery;

import dev.detour.core.account.Account;
import dev.detour.core.selection.ModelStateKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * E-1 "check now" (seed smart-router §6.7): a key holder queues R-4 probes of the routes of one
 * model that are unavailable for a reason a probe can clear. The probes run on the recovery
 * probe threads, never on the request thread, under the site's probe budget, as healthcheck
 * probes (they never revive a paused account) leaving their usual receipts. One key may ask once
 * per cooldown; a route already being probed is not probed twice (one failure domain, one probe).
 */
public final class RouteChecks {
    private static final Logger log = LoggerFactory.getLogger(RouteChecks.class);
    /** E-1: one check per key per minute. */
    public static final Duration KEY_COOLDOWN = Duration.ofSeconds(60);

    /** Stable outcome codes; the page words them as {@code my.check.<wire>}. */
    public enum Outcome { QUEUED, COOLED_DOWN, OVER_BUDGET, NOTHING_TO_CHECK;

        public String wire() {
            return name().toLowerCase();
        }
    }

    /** One route to probe: the account and the request-side model name. */
    public record Target(Account account, String clientModel, String modelKey) {
    }

    /** {@code queued}: probes started now; {@code retryInSeconds}: until the key may ask again (cooled down). */
    public record Answer(Outcome outcome, int queued, long retryInSeconds) {
    }

    private final ModelTester tester;
    private final ProbeBudget budget;
    private final Executor executor;
    private final Clock clock;
    private final Duration cooldown;
    private final Map<Long, Instant> lastAsked = new ConcurrentHashMap<>();
    private final Set<ModelStateKey> probing = ConcurrentHashMap.newKeySet();

    public RouteChecks(ModelTester tester, ProbeBudget budget, Executor executor, Clock clock, Duration cooldown) {
        this.tester = tester;
        this.budget = budget;
        this.executor = executor;
        this.clock = clock;
        this.cooldown = cooldown;
    }

    /** Queues the probes and answers at once; the results land in the pool state (and so on /my). */
    public synchronized Answer ask(long keyId, List<Target> targets) {
        Instant now = clock.instant();
        Instant last = lastAsked.get(keyId);
        if (last != null && now.isBefore(last.plus(cooldown))) {
            long wait = (Duration.between(now, last.plus(cooldown)).toMillis() + 999) / 1000;
            return new Answer(Outcome.COOLED_DOWN, 0, wait);
        }
        if (targets.isEmpty()) {
            return new Answer(Outcome.NOTHING_TO_CHECK, 0, 0);
        }
        int queued = 0;
        boolean alreadyProbing = false;
        for (Target target : targets) {
            ModelStateKey route = new ModelStateKey(target.account().id(), target.modelKey());
            if (probing.contains(route)) {
                alreadyProbing = true; // someone else's check covers this route too
            } else if (budget.tryAcquire(now) && start(target, route)) {
                queued++;
            }
        }
        if (queued == 0 && !alreadyProbing) {
            return new Answer(Outcome.OVER_BUDGET, 0, 0); // the key's cooldown is not spent on a refusal
        }
        lastAsked.put(keyId, now);
        return new Answer(Outcome.QUEUED, queued, 0);
    }

    /** True while a key check is probing this route. */
    public boolean probing(long accountId, String modelKey) {
        return probing.contains(new ModelStateKey(accountId, modelKey));
    }

    private boolean start(Target target, ModelStateKey route) {
        probing.add(route);
        try {
            executor.execute(() -> run(target, route));
            return true;
        } catch (RejectedExecutionException e) {
            probing.remove(route);
            budget.release();
            return false;
        }
    }

    private void run(Target target, ModelStateKey route) {
        try {
            tester.test(target.account(), target.clientModel(), ModelTester.Mode.HEALTHCHECK);
        } catch (RuntimeException e) {
            log.warn("key check of account {} failed to run: {}", target.account().id(), e.toString());
        } finally {
            probing.remove(route);
            budget.release();
        }
    }
}
