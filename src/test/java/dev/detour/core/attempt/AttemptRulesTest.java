package dev.detour.core.attempt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.attempt.AttemptRules.Decision;
import dev.detour.core.attempt.AttemptRules.FailedAttempt;
import dev.detour.core.attempt.AttemptRules.Next;
import dev.detour.core.failure.AttemptFacts;
import dev.detour.core.failure.Failure;
import dev.detour.core.failure.FailureClassifier;
import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.core.selection.ReasonCode;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** P-3, P-10, P-10', C-4', S-5: the attempt loop's decisions, over every combination of their facts. */
class AttemptRulesTest {
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration INTERVAL = Duration.ofSeconds(1);

    private static Failure answer(int status, Map<String, String> headers, String body) {
        return FailureClassifier.classify(AttemptFacts.response(status, headers, body).forModel("m"), NOW).failure();
    }

    private static final Failure SERVER_503 = answer(503, Map.of(), "{\"error\":{\"message\":\"busy\"}}");
    private static final Failure RATE_429 = answer(429, Map.of(), "{\"error\":{\"message\":\"slow down\"}}");
    private static final Failure AUTH_401 = answer(401, Map.of(), "{\"error\":{\"message\":\"bad key\"}}");
    private static final Failure FORBIDDEN_403 = answer(403, Map.of(), "{\"error\":{\"message\":\"no\"}}");
    private static final Failure QUOTA = answer(400, Map.of(),
            "{\"error\":{\"code\":\"insufficient_quota\",\"message\":\"out of credit\"}}");
    private static final Failure LONG_WAIT_503 = answer(503, Map.of("retry-after", "30"),
            "{\"error\":{\"message\":\"busy\"}}");
    private static final Failure SHORT_WAIT_503 = answer(503, Map.of("retry-after", "1"),
            "{\"error\":{\"message\":\"busy\"}}");
    private static final Failure REFUSED = FailureClassifier.classify(AttemptFacts.transport(
            new TransportError(TransportErrorType.CONNECT_REFUSED, "connection refused")).forModel("m"), NOW).failure();

    private static Decision decide(Failure failure, int retriesLeft, boolean neverSentTwice, boolean dispatched,
            boolean stateBoundUnknown) {
        return AttemptRules.afterFailure(new FailedAttempt(failure, retriesLeft, INTERVAL, neverSentTwice, dispatched,
                stateBoundUnknown));
    }

    private static Decision plain(Failure failure, int retriesLeft) {
        return decide(failure, retriesLeft, false, true, false);
    }

    @Test
    void aTransientFailureWithRetriesLeftTriesTheSameAccountAgain() {
        Decision d = plain(SERVER_503, 1);
        assertEquals(Next.SAME_ACCOUNT, d.next());
        assertEquals(AttemptAction.RETRY_SAME, d.action());
        assertNull(d.reason(), "the request's reason only changes when the loop leaves the account");
    }

    @Test
    void aTransientFailureWithNoRetriesLeftSwitchesToTheNextAccount() {
        Decision d = plain(SERVER_503, 0);
        assertEquals(new Decision(Next.NEXT_ACCOUNT, AttemptAction.SWITCH, ReasonCode.SWITCHED_AFTER_FAILURE), d);
    }

    @Test
    void authRateLimitAndQuotaFailuresNeverRetryTheSameAccount() {
        for (Failure f : List.of(AUTH_401, FORBIDDEN_403, RATE_429, QUOTA)) {
            assertEquals(Next.NEXT_ACCOUNT, plain(f, 3).next(), f.kind() + " " + f.status());
        }
    }

    @Test
    void aNamedWaitLongerThanTheRetryIntervalSwitchesInsteadOfRetrying() {
        assertEquals(Next.NEXT_ACCOUNT, plain(LONG_WAIT_503, 3).next());
        assertEquals(Next.SAME_ACCOUNT, plain(SHORT_WAIT_503, 3).next(), "a wait within the interval is no obstacle");
    }

    @Test
    void aSideEffectingRequestOnceDispatchedStopsWithoutRetryingAnywhere() {
        Decision d = decide(SERVER_503, 3, true, true, false);
        assertEquals(new Decision(Next.STOP, AttemptAction.SWITCH, ReasonCode.RETRY_STOPPED_AFTER_COMMIT), d);
    }

    @Test
    void aSideEffectingRequestThatWasNeverDispatchedMayRetryAndSwitch() {
        assertEquals(Next.SAME_ACCOUNT, decide(REFUSED, 1, true, false, false).next());
        assertEquals(Next.NEXT_ACCOUNT, decide(REFUSED, 0, true, false, false).next());
    }

    @Test
    void anUnknownStateRequestRetriesTheSameAccountButNeverMovesOnceDispatched() {
        assertEquals(Next.SAME_ACCOUNT, decide(SERVER_503, 1, false, true, true).next());
        Decision d = decide(SERVER_503, 0, false, true, true);
        assertEquals(new Decision(Next.STOP, AttemptAction.SWITCH, ReasonCode.STATE_BOUND_UNKNOWN), d);
        assertEquals(Next.NEXT_ACCOUNT, decide(REFUSED, 0, false, false, true).next(), "not dispatched: it may move");
    }

    @Test
    void unknownStateOutranksTheSideEffectReasonWhenBothStop() {
        assertEquals(ReasonCode.STATE_BOUND_UNKNOWN, decide(SERVER_503, 0, true, true, true).reason());
    }

    /** Every combination: the invariants the loop relies on. */
    @Test
    void everyCombinationKeepsTheLoopsInvariants() {
        List<Failure> failures = List.of(SERVER_503, RATE_429, AUTH_401, FORBIDDEN_403, QUOTA, LONG_WAIT_503,
                SHORT_WAIT_503, REFUSED);
        boolean[] both = {false, true};
        int combinations = 0;
        for (Failure f : failures) {
            for (int retries = 0; retries <= 2; retries++) {
                for (boolean neverTwice : both) {
                    for (boolean dispatched : both) {
                        for (boolean unknownState : both) {
                            Decision d = decide(f, retries, neverTwice, dispatched, unknownState);
                            combinations++;
                            String facts = f.status() + " retries=" + retries + " neverTwice=" + neverTwice
                                    + " dispatched=" + dispatched + " unknownState=" + unknownState;
                            boolean mayRetry = retries > 0 && f.retrySameAccount(INTERVAL)
                                    && !(neverTwice && dispatched);
                            assertEquals(mayRetry, d.next() == Next.SAME_ACCOUNT, facts);
                            if (d.next() == Next.SAME_ACCOUNT) {
                                assertEquals(AttemptAction.RETRY_SAME, d.action(), facts);
                                assertNull(d.reason(), facts);
                                continue;
                            }
                            assertEquals(AttemptAction.SWITCH, d.action(), facts);
                            // P-10 / P-10': a stop needs a dispatched request that must not move
                            boolean mustStay = dispatched && (neverTwice || unknownState);
                            assertEquals(mustStay, d.next() == Next.STOP, facts);
                            assertEquals(mustStay ? (unknownState ? ReasonCode.STATE_BOUND_UNKNOWN
                                    : ReasonCode.RETRY_STOPPED_AFTER_COMMIT) : ReasonCode.SWITCHED_AFTER_FAILURE,
                                    d.reason(), facts);
                        }
                    }
                }
            }
        }
        assertEquals(8 * 3 * 2 * 2 * 2, combinations);
    }

    @Test
    void onlyARefusedConnectionAnUnknownHostOrAConnectTimeoutCountAsNotDispatched() {
        Set<TransportErrorType> notDispatched = EnumSet.of(TransportErrorType.CONNECT_REFUSED,
                TransportErrorType.UNKNOWN_HOST, TransportErrorType.CONNECT_TIMEOUT);
        for (TransportErrorType type : TransportErrorType.values()) {
            assertEquals(!notDispatched.contains(type), AttemptRules.dispatched(type), type.name());
        }
    }

    @Test
    void theKeysMaxAttemptsBoundsTheAccountsTriedAndZeroMeansEvery() {
        assertTrue(AttemptRules.mayTryAnother(0, 2));
        assertTrue(AttemptRules.mayTryAnother(1, 2));
        assertFalse(AttemptRules.mayTryAnother(2, 2));
        assertTrue(AttemptRules.mayTryAnother(50, 0));
    }

    @Test
    void aDeliveredAnswerSaysWhetherItCameAfterASwitchARetryOrAtFirstPick() {
        ReasonCode picked = ReasonCode.SELECTED_PRIORITY;
        assertEquals(picked, AttemptRules.successReason(List.of(), picked));
        assertEquals(ReasonCode.RETRY_SAME_ACCOUNT, AttemptRules.successReason(List.of(AttemptAction.RETRY_SAME),
                picked));
        assertEquals(ReasonCode.SWITCHED_AFTER_FAILURE, AttemptRules.successReason(List.of(AttemptAction.RETRY_SAME,
                AttemptAction.SWITCH), picked));
        assertEquals(ReasonCode.SWITCHED_AFTER_FAILURE, AttemptRules.successReason(List.of(AttemptAction.SWITCH,
                AttemptAction.RETRY_SAME), picked));
    }

    @Test
    void anEmptyLoopIsAtCapacityOnlyWhenARouteWasSkippedForBeingFull() {
        assertTrue(AttemptRules.atCapacity(0, true));
        assertFalse(AttemptRules.atCapacity(0, false), "nothing eligible is not busy");
        assertFalse(AttemptRules.atCapacity(1, true), "an attempt was made: its failure decides");
    }

    @Test
    void theActionsKeepTheirWireStrings() {
        assertEquals(List.of("final", "retry_same", "switch"),
                List.of(AttemptAction.values()).stream().map(AttemptAction::wire).toList());
        for (AttemptAction a : AttemptAction.values()) {
            assertEquals(a, AttemptAction.fromWire(a.wire()));
        }
        assertNull(AttemptAction.fromWire("retry"));
        assertNotEquals(AttemptAction.FINAL, AttemptAction.fromWire("switch"));
    }
}
