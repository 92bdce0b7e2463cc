package dev.detour.core.cooldown;

import static dev.detour.core.cooldown.FailureMother.COOLDOWN_OFF;
import static dev.detour.core.cooldown.FailureMother.SOL_AND_GLM;
import static dev.detour.core.cooldown.FailureMother.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import dev.detour.core.failure.Failure;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** C-6: breaker threshold, ladder, half-open trial, success reset; exponential backoff. */
class BreakerRulesTest {
    private static final BreakerPolicy THREE = new BreakerPolicy(true, 3, List.of(1800, 3600, 7200, 21600));

    private static Account with(BreakerPolicy breaker, BackoffPolicy backoff, AccountFailureState state) {
        Account a = FailureMother.account(SOL_AND_GLM, COOLDOWN_OFF).withFailure(state);
        return new Account(a.id(), a.name(), a.groupId(), a.platform(), a.baseUrl(), a.mappings(), a.families(),
                a.priority(), a.weight(), a.enabled(), a.archived(), a.status(), a.quotaRemaining(), a.maxInFlight(),
                a.failurePolicy(), a.recovery(), state, 0, 0, null, breaker, backoff);
    }

    private static AccountFailureState breakerState(int streak, int step, Instant openUntil, int backoffStreak) {
        return new AccountFailureState(0, null, null, null, null, null, 0, null, streak, step, openUntil,
                backoffStreak);
    }

    private static AccountFailureState fail(Account account, Failure failure, Instant now) {
        FailureOutcome base = CooldownRules.afterFailure(account, List.of(), Set.of("upstream-sol", "upstream-glm"),
                failure, now);
        return BreakerRules.afterFailure(account, base, failure, now).accountFailure();
    }

    @ParameterizedTest(name = "streak {0}, step {1}, open until +{2}s → streak {3}, step {4}, open for {5}s")
    @CsvSource({
            // closed: count up to the threshold, the third opens for ladder[0]
            "0, 0,     , 1, 0,      ",
            "1, 0,     , 2, 0,      ",
            "2, 0,     , 0, 1, 1800",
            // open and not expired: a late failure changes nothing
            "0, 1, 600 , 0, 1, 600 ",
            // half-open (expired): the trial failed → next step at once
            "0, 1, -1  , 0, 2, 3600",
            "0, 2, -1  , 0, 3, 7200",
            "0, 3, -1  , 0, 4, 21600",
            // past the ladder's end the last step repeats
            "0, 6, -1  , 0, 7, 21600",
    })
    void breakerTable(int streak, int step, Integer openInSeconds, int streakAfter, int stepAfter,
            Integer openForSeconds) {
        Instant openUntil = openInSeconds == null ? null : T0.plusSeconds(openInSeconds);
        Account account = with(THREE, BackoffPolicy.DEFAULTS, breakerState(streak, step, openUntil, 0));
        AccountFailureState after = fail(account, FailureMother.status(500, null, T0), T0);
        assertEquals(streakAfter, after.breakerFailureStreak());
        assertEquals(stepAfter, after.breakerStep());
        assertEquals(openForSeconds == null ? null : T0.plusSeconds(openForSeconds), after.breakerOpenUntil());
    }

    @Test
    void aSuccessResetsTheBreakerAndTheBackoffStreak() {
        Account account = with(THREE, new BackoffPolicy("exponential", 600, 7200),
                breakerState(2, 3, T0.minusSeconds(1), 4));
        SuccessOutcome success = CooldownRules.afterSuccess(account, null, false, T0);
        assertEquals(AccountFailureState.CLEAN, success.accountFailure());
    }

    @Test
    void theBreakerIsOffByDefaultAndCountsNothing() {
        Account account = with(BreakerPolicy.DEFAULTS, BackoffPolicy.DEFAULTS, AccountFailureState.CLEAN);
        AccountFailureState after = fail(account, FailureMother.status(500, null, T0), T0);
        assertEquals(0, after.breakerFailureStreak());
        assertNull(after.breakerOpenUntil());
    }

    @Test
    void clientErrorsAndQuotaNeverCountTowardTheBreaker() {
        Account account = with(THREE, BackoffPolicy.DEFAULTS, breakerState(2, 0, null, 0));
        assertEquals(2, fail(account, FailureMother.status(400, null, T0), T0).breakerFailureStreak());
        assertEquals(2, fail(account, FailureMother.quota(null, T0), T0).breakerFailureStreak());
    }

    @ParameterizedTest(name = "streak {0} → window {1}s")
    @CsvSource({"1, 600", "2, 1200", "3, 2400", "4, 4800", "5, 7200", "9, 7200"})
    void exponentialBackoffDoublesFromTheBaseUpToTheCap(int streak, long seconds) {
        BackoffPolicy policy = new BackoffPolicy("exponential", 600, 7200);
        assertEquals(Duration.ofSeconds(seconds), BreakerRules.backoffWindow(policy, streak));
    }

    @Test
    void exponentialBackoffCoolsTheAccountAndPersistsTheStreakEvenWithCooldownOff() {
        Account account = with(BreakerPolicy.DEFAULTS, new BackoffPolicy("exponential", 600, 7200),
                breakerState(0, 0, null, 2));
        AccountFailureState after = fail(account, FailureMother.transport(null, T0), T0);
        assertEquals(3, after.backoffStreak());
        assertEquals(T0.plusSeconds(2400), after.cooldownUntil());
        assertEquals(T0.plusSeconds(2400), after.nextRetryAt());
    }

    @Test
    void fixedBackoffLeavesTheWindowToTheFailurePolicy() {
        Account account = with(BreakerPolicy.DEFAULTS, BackoffPolicy.DEFAULTS, AccountFailureState.CLEAN);
        AccountFailureState after = fail(account, FailureMother.transport(null, T0), T0);
        assertEquals(0, after.backoffStreak());
        assertNull(after.cooldownUntil());
    }

    @Test
    void onlyABreakerWhoseTimeHasRunOutIsHalfOpen() {
        Account closed = dev.detour.testkit.AccountMother.account(7).build();
        Account open = dev.detour.testkit.AccountMother.account(7).breakerOpenUntil(T0.plusSeconds(60)).build();
        assertEquals(false, BreakerRules.halfOpen(closed, T0), "never opened");
        assertEquals(false, BreakerRules.halfOpen(open, T0), "still open: selection leaves it out");
        assertEquals(true, BreakerRules.halfOpen(open, T0.plusSeconds(60)), "its time is up: one trial");
        assertEquals(true, BreakerRules.halfOpen(open, T0.plusSeconds(3600)));
    }
}
