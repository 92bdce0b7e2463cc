package dev.detour.core.cooldown;

import static dev.detour.core.cooldown.FailureMother.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.testkit.AccountMother;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * C-5 / D-1: the one success → state composition, applied at once in memory and again (perhaps later)
 * by the store under the row lock: it clears nothing that changed after the success happened.
 */
class SuccessTransitionTest {
    private static final Account COOLING = AccountMother.account(7).maps(FailureMother.SOL_AND_GLM)
            .failurePolicy(FailureMother.COOLDOWN_ON).coolingUntil(T0.plusSeconds(10)).build();
    private static final ModelState SOL = AccountMother.coolingModel(7, "upstream-sol", T0.plusSeconds(10));

    @Test
    void aSuccessClearsTheAccountAndItsModelRowAsTheCooldownRulesSay() {
        SuccessOutcome outcome = SuccessTransition.apply(COOLING, List.of(SOL), null, "upstream-sol", false, T0);
        assertEquals(CooldownRules.afterSuccess(COOLING, SOL, false, T0), outcome);
        assertTrue(outcome.accountChanged());
        assertEquals(RowChange.delete(SOL), outcome.rowChange());
    }

    @Test
    void aModelRowWrittenAfterTheSuccessStays() {
        ModelState newer = updatedAt(SOL, T0.plusSeconds(5));
        SuccessOutcome outcome = SuccessTransition.apply(COOLING, List.of(newer), null, "upstream-sol", false, T0);
        assertEquals(RowChange.NONE, outcome.rowChange());
        assertTrue(outcome.accountChanged(), "the account was not written since: it is cleared");
    }

    @Test
    void anAccountWrittenAfterTheSuccessKeepsItsStateWhileTheModelRowStillClears() {
        SuccessOutcome outcome = SuccessTransition.apply(COOLING, List.of(SOL), T0.plusSeconds(5), "upstream-sol",
                false, T0);
        assertFalse(outcome.accountChanged());
        assertEquals(COOLING, outcome.applyTo(COOLING));
        assertEquals(RowChange.delete(SOL), outcome.rowChange());
    }

    @Test
    void aSuccessWithoutAModelKeyTouchesNoRow() {
        SuccessOutcome outcome = SuccessTransition.apply(COOLING, List.of(SOL), null, null, false, T0);
        assertEquals(RowChange.NONE, outcome.rowChange());
    }

    @Test
    void theServedWindowForEscalationIsTheLastDay() {
        assertEquals(Duration.ofHours(24), FailureTransition.SERVED_WINDOW);
        assertEquals(T0.minus(Duration.ofHours(24)), FailureTransition.servedSince(T0));
    }

    private static ModelState updatedAt(ModelState r, Instant at) {
        return new ModelState(r.accountId(), r.modelKey(), r.status(), r.transientFailureCount(), r.cooldownUntil(),
                r.rateLimitResetAt(), r.semanticStreakCount(), r.semanticStreakFingerprint(), r.lastFailureKind(),
                r.lastFailureMessage(), r.lastFailureResponse(), r.createdAt(), at, r.statedUntil());
    }
}
