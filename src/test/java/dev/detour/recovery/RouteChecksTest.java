package dev.detour.recovery;

import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.recovery.RouteChecks.Answer;
import dev.detour.recovery.RouteChecks.Outcome;
import dev.detour.recovery.RouteChecks.Target;
import dev.detour.testkit.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/** E-1 "check now" bookkeeping: per-key cooldown, the site probe budget, one probe per route. Probes are queued, not run. */
class RouteChecksTest {
    private final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    private final List<Runnable> queued = new ArrayList<>();
    private final ProbeBudget budget = new ProbeBudget(() -> 2, () -> 10);

    private RouteChecks checks(Executor executor) {
        // the tester is never reached: the queued probes are not run here
        return new RouteChecks(null, budget, executor, clock, RouteChecks.KEY_COOLDOWN);
    }

    private static Target target(long accountId) {
        return new Target(account(accountId).build(), "m", "up-m");
    }

    @Test
    void aKeyMayAskOncePerCooldownAndIsToldHowLongToWait() {
        RouteChecks checks = checks(queued::add);

        assertEquals(new Answer(Outcome.QUEUED, 1, 0), checks.ask(7, List.of(target(1))));
        clock.advance(Duration.ofSeconds(20));
        assertEquals(new Answer(Outcome.COOLED_DOWN, 0, 40), checks.ask(7, List.of(target(2))));
        assertEquals(1, queued.size(), "a refused check queues nothing");
        clock.advance(Duration.ofSeconds(40));
        assertEquals(Outcome.QUEUED, checks.ask(7, List.of(target(2))).outcome());
    }

    @Test
    void theSiteBudgetLimitsTheProbesAndARefusalDoesNotCoolTheKeyDown() {
        RouteChecks checks = checks(queued::add);

        assertEquals(new Answer(Outcome.QUEUED, 2, 0), checks.ask(7, List.of(target(1), target(2), target(3))));
        assertEquals(new Answer(Outcome.OVER_BUDGET, 0, 0), checks.ask(8, List.of(target(3))));
        clock.advance(Duration.ofSeconds(61));
        queued.forEach(Runnable::run); // ... the tester is null, so each probe fails to run and is let go
        assertEquals(new Answer(Outcome.QUEUED, 1, 0), checks.ask(8, List.of(target(3))));
    }

    @Test
    void aRouteBeingProbedIsNotProbedTwiceButCountsAsChecking() {
        RouteChecks checks = checks(queued::add);
        checks.ask(7, List.of(target(1)));

        assertTrue(checks.probing(1, "up-m"));
        assertEquals(new Answer(Outcome.QUEUED, 0, 0), checks.ask(8, List.of(target(1))));
        assertEquals(1, queued.size());
        queued.get(0).run();
        assertFalse(checks.probing(1, "up-m"), "done (even when the probe could not run)");
        assertEquals(0, budget.running());
    }

    @Test
    void nothingToCheckAndAFullProbePoolAreAnsweredWithoutSpendingTheBudget() {
        assertEquals(Outcome.NOTHING_TO_CHECK, checks(queued::add).ask(7, List.of()).outcome());
        RouteChecks refusing = checks(r -> {
            throw new RejectedExecutionException("full");
        });
        assertEquals(Outcome.OVER_BUDGET, refusing.ask(7, List.of(target(1))).outcome());
        assertEquals(0, budget.running());
        assertFalse(refusing.probing(1, "up-m"));
    }
}
