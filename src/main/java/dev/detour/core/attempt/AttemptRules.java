package dev.detour.core.attempt;

import dev.detour.core.failure.Failure;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.core.selection.ReasonCode;
import java.time.Duration;
import java.util.Collection;

/**
 * The attempt loop's decisions (P-3), pure: whether another account may be tried, what follows a
 * failed attempt (the same account again, the next account, or stop), which reason a delivered
 * answer carries, and when an empty loop means "busy" rather than "broken". The gateway's loop
 * only selects, tries, counts and asks.
 */
public final class AttemptRules {
    private AttemptRules() {
    }

    /** Where the loop goes after a failed attempt. */
    public enum Next {
        /** Try this account again (after its retry interval). */
        SAME_ACCOUNT,
        /** Record the failure on this account and try the next candidate. */
        NEXT_ACCOUNT,
        /** Record the failure on this account and try no other one. */
        STOP
    }

    /**
     * The facts one failed attempt is judged on.
     *
     * @param failure           the classified failure
     * @param retriesLeft       same-account retries this account still has (its {@code retry_count} minus those used)
     * @param retryInterval     the account's {@code retry_interval_ms}
     * @param neverSentTwice    the request must never reach a second upstream once dispatched
     *                          ({@code store}, {@code background}, a conversation: P-10)
     * @param dispatched        the upstream may have seen the request (P-10: not after a refused connection,
     *                          an unknown host or a connect timeout)
     * @param stateBoundUnknown the request continues state Detour has no binding for (P-10')
     */
    public record FailedAttempt(Failure failure, int retriesLeft, Duration retryInterval, boolean neverSentTwice,
            boolean dispatched, boolean stateBoundUnknown) {
    }

    /**
     * @param next     where the loop goes
     * @param action   what the attempt record says
     * @param reason   the request's reason once the loop leaves the account (null while it stays)
     */
    public record Decision(Next next, AttemptAction action, ReasonCode reason) {
    }

    private static final Decision RETRY = new Decision(Next.SAME_ACCOUNT, AttemptAction.RETRY_SAME, null);
    private static final Decision SWITCH = new Decision(Next.NEXT_ACCOUNT, AttemptAction.SWITCH,
            ReasonCode.SWITCHED_AFTER_FAILURE);
    private static final Decision STOP_STATE_BOUND = new Decision(Next.STOP, AttemptAction.SWITCH,
            ReasonCode.STATE_BOUND_UNKNOWN);
    private static final Decision STOP_COMMITTED = new Decision(Next.STOP, AttemptAction.SWITCH,
            ReasonCode.RETRY_STOPPED_AFTER_COMMIT);

    /** P-3: each account at most once, up to the key's {@code max_attempts} (0: every eligible account). */
    public static boolean mayTryAnother(int accountsTried, int maxAttempts) {
        return maxAttempts <= 0 || accountsTried < maxAttempts;
    }

    /** What follows one failed attempt. */
    public static Decision afterFailure(FailedAttempt attempt) {
        // P-10: store/background/conversation requests are never sent twice once dispatched, not even here
        boolean sideEffectStop = attempt.neverSentTwice() && attempt.dispatched();
        // P-3 / C-4': transient only, never on 401/403/429, quota, or a named wait longer than the interval
        if (attempt.retriesLeft() > 0 && !sideEffectStop && attempt.failure().retrySameAccount(attempt.retryInterval())) {
            return RETRY;
        }
        // P-10': the state may live on this account (or was just created there): no other account after dispatch
        if (attempt.stateBoundUnknown() && attempt.dispatched()) {
            return STOP_STATE_BOUND;
        }
        return sideEffectStop ? STOP_COMMITTED : SWITCH;
    }

    /** P-10: a request that never reached the upstream (refused, unknown host, connect timeout) may go elsewhere. */
    public static boolean dispatched(TransportErrorType transportError) {
        return !(transportError == TransportErrorType.CONNECT_REFUSED
                || transportError == TransportErrorType.UNKNOWN_HOST
                || transportError == TransportErrorType.CONNECT_TIMEOUT);
    }

    /**
     * The reason a delivered answer carries, from the actions recorded before it: a switch if any account
     * failed before, a same-account retry if this one did, else the plan's reason for the pick.
     */
    public static ReasonCode successReason(Collection<AttemptAction> earlier, ReasonCode picked) {
        if (earlier.contains(AttemptAction.SWITCH)) {
            return ReasonCode.SWITCHED_AFTER_FAILURE;
        }
        return earlier.contains(AttemptAction.RETRY_SAME) ? ReasonCode.RETRY_SAME_ACCOUNT : picked;
    }

    /**
     * S-5: no attempt was made and at least one route was skipped because it was full: the pool is busy,
     * not broken (503 {@code at_capacity}, nothing recorded on any account).
     */
    public static boolean atCapacity(int attemptsMade, boolean skippedForCapacity) {
        return attemptsMade == 0 && skippedForCapacity;
    }
}
