package dev.detour.core.cooldown;

import static dev.detour.core.cooldown.FailureMother.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.failure.Failure;
import dev.detour.testkit.AccountMother;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * D-1: the one failure → state composition, applied at once in memory and again (perhaps much
 * later, perhaps on state another instance changed meanwhile) by the store under the row lock.
 */
class FailureTransitionTest {
    private static final Account PRIMARY = FailureMother.primary();

    @Test
    void composesTheCooldownRulesLikeTheStoreDidBefore() {
        Failure limited = FailureMother.status(429, "upstream-sol", T0);
        FailureOutcome composed = FailureTransition.apply(PRIMARY, List.of(), Set.of(), "upstream-sol", limited, T0);
        FailureOutcome rules = CooldownRules.afterFailure(PRIMARY, List.of(),
                Escalation.serviceableKeys(PRIMARY.mappings(), List.of(), Set.of(), "upstream-sol"), limited, T0);
        assertEquals(rules, composed);
        assertEquals(T0.plusSeconds(10), composed.modelRow().cooldownUntil());
    }

    @Test
    void aLateFailureBuildsOnTheCountsAnotherInstanceWroteMeanwhile() {
        ModelState stored = withCount(AccountMother.coolingModel(7, "upstream-sol", T0.minusSeconds(5)), 3);
        FailureOutcome late = FailureTransition.apply(PRIMARY, List.of(stored), Set.of(), "upstream-sol",
                FailureMother.status(503, "upstream-sol", T0), T0);
        assertEquals(4, late.modelRow().transientFailureCount());
        assertEquals(T0.plusSeconds(10), late.modelRow().cooldownUntil());
    }

    @Test
    void aLateFailureNeverShortensAModelWindowWrittenAfterIt() {
        ModelState newer = AccountMother.coolingModel(7, "upstream-sol", T0.plusSeconds(600));
        FailureOutcome late = FailureTransition.apply(PRIMARY, List.of(newer), Set.of(), "upstream-sol",
                FailureMother.status(503, "upstream-sol", T0), T0);
        assertEquals(T0.plusSeconds(600), late.modelRow().cooldownUntil());
        assertEquals(2, late.modelRow().transientFailureCount());
    }

    @Test
    void aLateFailureNeverShortensAnAccountWindowWrittenAfterIt() {
        Account cooling = AccountMother.account(7).maps(FailureMother.SOL_AND_GLM)
                .failurePolicy(FailureMother.COOLDOWN_ON).coolingUntil(T0.plusSeconds(900)).build();
        FailureOutcome late = FailureTransition.apply(cooling, List.of(), Set.of(), "upstream-sol",
                FailureMother.status(401, "upstream-sol", T0), T0);
        assertEquals(T0.plusSeconds(900), late.accountFailure().cooldownUntil());
        assertEquals(T0.plusSeconds(900), late.accountFailure().nextRetryAt());
    }

    @Test
    void aQuotaFailureStillClearsTheRetryLaterWindows() {
        Account cooling = AccountMother.account(7).maps(FailureMother.SOL_AND_GLM)
                .failurePolicy(FailureMother.COOLDOWN_ON).coolingUntil(T0.plusSeconds(900)).build();
        FailureOutcome quota = FailureTransition.apply(cooling, List.of(), Set.of(), "upstream-sol",
                FailureMother.quota("upstream-sol", T0), T0);
        assertNull(quota.accountFailure().cooldownUntil());
        assertNull(quota.accountFailure().nextRetryAt());
    }

    @Test
    void thePassThroughDenominatorCountsTheServedKeys() {
        Account relay = AccountMother.account(7).failurePolicy(FailureMother.COOLDOWN_ON).build();
        FailureOutcome alone = FailureTransition.apply(relay, List.of(), Set.of(), "m1",
                FailureMother.status(503, "m1", T0), T0);
        FailureOutcome withServed = FailureTransition.apply(relay, List.of(), Set.of("m1", "m2"), "m1",
                FailureMother.status(503, "m1", T0), T0);
        assertTrue(alone.escalated(), "the only known model failed: the whole relay cools");
        assertFalse(withServed.escalated(), "m2 was served lately: only m1 cools");
    }

    @Test
    void aClientErrorChangesNothing() {
        FailureOutcome none = FailureTransition.apply(PRIMARY, List.of(), Set.of(), "upstream-sol",
                FailureMother.status(400, "upstream-sol", T0), T0);
        assertFalse(none.changed());
    }

    private static ModelState withCount(ModelState row, int count) {
        return new ModelState(row.accountId(), row.modelKey(), row.status(), count, row.cooldownUntil(),
                row.rateLimitResetAt(), row.semanticStreakCount(), row.semanticStreakFingerprint(),
                row.lastFailureKind(), row.lastFailureMessage(), row.lastFailureResponse(), row.createdAt(),
                row.updatedAt(), row.statedUntil());
    }
}
