package dev.detour.core.cooldown;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import dev.detour.core.failure.Failure;
import dev.detour.core.failure.Scope;
import java.time.Duration;
import java.time.Instant;

/**
 * C-6, applied on top of {@link CooldownRules#afterFailure}: the optional breaker (threshold,
 * ladder, half-open trial) and the optional exponential backoff. Both count transient failures
 * only and are reset by a success (C-5 writes a clean state, which zeroes every C-6 column).
 *
 * <p>Half-open: an open breaker whose {@code breaker_open_until} has passed stays recorded until the
 * next outcome; selection then sees the account as eligible (the gateway lets one request try it).
 * A failure in that state re-opens at the next ladder step at once; a success clears everything.
 */
public final class BreakerRules {
    private BreakerRules() {
    }

    public static FailureOutcome afterFailure(Account before, FailureOutcome outcome, Failure failure, Instant now) {
        if (failure == null || !failure.isTransient() || failure.quota()) {
            return outcome;
        }
        AccountFailureState state = outcome.accountFailure();
        if (before.backoff().exponential() && (accountScoped(failure) || outcome.escalated())) {
            state = exponentialBackoff(before, state, failure, now);
        }
        if (before.breaker().enabled()) {
            state = breaker(before.breaker(), before.failure(), state, now);
        }
        if (state.equals(outcome.accountFailure())) {
            return outcome;
        }
        return new FailureOutcome(outcome.status(), state, outcome.modelRow(), outcome.escalated(), true);
    }

    /** The breaker columns after one more transient failure; {@code old} is the state before it. */
    static AccountFailureState breaker(BreakerPolicy policy, AccountFailureState old, AccountFailureState state,
            Instant now) {
        Instant openUntil = old.breakerOpenUntil();
        if (openUntil != null && openUntil.isAfter(now)) {
            return state; // open already: a request picked before it opened changes nothing
        }
        boolean halfOpen = openUntil != null;
        int streak = old.breakerFailureStreak() + 1;
        if (!halfOpen && streak < policy.threshold()) {
            return withBreaker(state, streak, old.breakerStep(), null);
        }
        return withBreaker(state, 0, old.breakerStep() + 1, now.plus(ladderStep(policy, old.breakerStep())));
    }

    /**
     * C-6 half-open: the breaker opened and its time has run out, but no outcome has cleared or
     * re-opened it yet. Only then is the account's next request a trial (one at a time per instance).
     */
    public static boolean halfOpen(Account account, Instant now) {
        Instant open = account.failure().breakerOpenUntil();
        return open != null && !open.isAfter(now);
    }

    /** Step n of the ladder (0-based); past its end the last step repeats. */
    public static Duration ladderStep(BreakerPolicy policy, int step) {
        int index = Math.min(Math.max(step, 0), policy.ladderSeconds().size() - 1);
        return Duration.ofSeconds(policy.ladderSeconds().get(index));
    }

    /** base × 2^(streak−1), capped; {@code streak} ≥ 1. */
    public static Duration backoffWindow(BackoffPolicy policy, int streak) {
        long seconds = policy.baseSeconds();
        for (int i = 1; i < streak && seconds < policy.capSeconds(); i++) {
            seconds *= 2;
        }
        return Duration.ofSeconds(Math.min(seconds, policy.capSeconds()));
    }

    private static AccountFailureState exponentialBackoff(Account before, AccountFailureState state, Failure failure,
            Instant now) {
        int streak = before.failure().backoffStreak() + 1;
        Instant until = now.plus(backoffWindow(before.backoff(), streak));
        Instant hint = CooldownWindow.honoredHint(before.failurePolicy(), failure, now);
        if (hint != null) {
            Instant cap = now.plusSeconds(before.failurePolicy().retryAfterCapSeconds());
            until = AccountFailureState.later(until, hint.isBefore(cap) ? hint : cap); // C-4 still applies
        }
        AccountFailureState cooled = AccountStates.coolUntil(state, until);
        return new AccountFailureState(cooled.transientFailureCount(), cooled.nextRetryAt(), cooled.cooldownUntil(),
                cooled.lastFailureKind(), cooled.lastFailureMessage(), cooled.lastFailureResponse(),
                cooled.semanticStreakCount(), cooled.semanticStreakFingerprint(), cooled.breakerFailureStreak(),
                cooled.breakerStep(), cooled.breakerOpenUntil(), streak);
    }

    private static boolean accountScoped(Failure failure) {
        return failure.scope() != Scope.MODEL || failure.modelKey() == null;
    }

    private static AccountFailureState withBreaker(AccountFailureState s, int streak, int step, Instant openUntil) {
        return new AccountFailureState(s.transientFailureCount(), s.nextRetryAt(), s.cooldownUntil(),
                s.lastFailureKind(), s.lastFailureMessage(), s.lastFailureResponse(), s.semanticStreakCount(),
                s.semanticStreakFingerprint(), streak, step, openUntil, s.backoffStreak());
    }
}
