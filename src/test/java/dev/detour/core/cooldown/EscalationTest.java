package dev.detour.core.cooldown;

import static dev.detour.core.cooldown.FailureMother.COOLDOWN_OFF;
import static dev.detour.core.cooldown.FailureMother.COOLDOWN_ON;
import static dev.detour.core.cooldown.FailureMother.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** C-3: every serviceable model unavailable → the whole account backs off. */
class EscalationTest {
    static final ModelMappings FOUR = ModelMappings.of(List.of(new ModelMapping("a", "ua"),
            new ModelMapping("b", "ub"), new ModelMapping("c", "uc"), new ModelMapping("d", "ud[1m]")));

    @Test
    void theSecondModelFailingEscalatesAMappedTwoModelAccount() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        assertFalse(s.fail(FailureMother.status(502, "upstream-sol", T0), T0).escalated());
        assertNull(s.account.failure().cooldownUntil());
        FailureOutcome second = s.fail(FailureMother.status(502, "upstream-glm", T0.plusSeconds(1)), T0.plusSeconds(1));
        assertTrue(second.escalated());
        assertEquals(T0.plusSeconds(11), second.accountFailure().cooldownUntil());
        assertEquals(T0.plusSeconds(11), second.accountFailure().nextRetryAt());
    }

    @Test
    void aFailureLandingWhileTheAccountAlreadyCoolsDoesNotEscalateAgain() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        s.fail(FailureMother.status(502, "upstream-sol", T0), T0);
        assertTrue(s.fail(FailureMother.status(502, "upstream-glm", T0), T0).escalated());
        // a request picked before the escalation fails a moment later: the account cools already
        FailureOutcome late = s.fail(FailureMother.status(502, "upstream-sol", T0.plusSeconds(1)), T0.plusSeconds(1));
        assertFalse(late.escalated());
        assertEquals(T0.plusSeconds(10), late.accountFailure().cooldownUntil(), "the escalation window is kept");
    }

    @Test
    void anExpiredModelCooldownCountsAsAvailable() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        s.fail(FailureMother.status(502, "upstream-sol", T0), T0);
        assertFalse(s.fail(FailureMother.status(502, "upstream-glm", T0.plusSeconds(10)), T0.plusSeconds(10))
                .escalated());
    }

    @Test
    void pausedModelsAreExcludedFromTheDenominator() {
        AccountModelsState s = new AccountModelsState(FailureMother.account(FOUR, COOLDOWN_ON));
        s.rows.put("ub", ModelState.fresh(7, "ub", ModelStatus.PAUSED, T0));
        assertFalse(s.fail(FailureMother.status(500, "ua", T0), T0).escalated());
        assertFalse(s.fail(FailureMother.status(500, "uc", T0), T0).escalated()); // ud still serves
        assertTrue(s.fail(FailureMother.status(500, "ud", T0), T0).escalated()); // ub paused: not counted
    }

    @Test
    void withThreeOfFourPausedTheFourthBehavesLikeAOneModelAccount() {
        AccountModelsState s = new AccountModelsState(FailureMother.account(FOUR, COOLDOWN_ON));
        for (String k : List.of("ua", "ub", "uc")) {
            s.rows.put(k, ModelState.fresh(7, k, ModelStatus.PAUSED, T0));
        }
        assertTrue(s.fail(FailureMother.status(500, "ud", T0), T0).escalated());
    }

    @Test
    void errorRowsCountAsUnavailable() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        s.rows.put("upstream-glm", ModelState.fresh(7, "upstream-glm", ModelStatus.ERROR, T0));
        assertTrue(s.fail(FailureMother.status(500, "upstream-sol", T0), T0).escalated());
    }

    @Test
    void withoutAnyWindowThereIsNothingToEscalate() {
        AccountModelsState s = new AccountModelsState(FailureMother.account(FailureMother.SOL_AND_GLM, COOLDOWN_OFF));
        s.fail(FailureMother.status(500, "upstream-sol", T0), T0);
        assertFalse(s.fail(FailureMother.status(500, "upstream-glm", T0), T0).escalated());
        assertNull(s.account.failure().cooldownUntil());
    }

    @Test
    void passThroughRelayEscalatesAfterEachKnownModelFailedOnce() {
        AccountModelsState s = new AccountModelsState(FailureMother.account(ModelMappings.PASS_THROUGH, COOLDOWN_ON));
        List<String> served = List.of("m1", "m2", "m3");
        for (String key : List.of("m1", "m2")) {
            Set<String> keys = Escalation.serviceableKeys(ModelMappings.PASS_THROUGH, s.rows.keySet(), served, key);
            assertFalse(s.fail(FailureMother.status(503, key, T0), keys, T0).escalated(), key);
        }
        Set<String> keys = Escalation.serviceableKeys(ModelMappings.PASS_THROUGH, s.rows.keySet(), served, "m3");
        assertTrue(s.fail(FailureMother.status(503, "m3", T0), keys, T0).escalated());
    }

    @Test
    void serviceableKeysFollowTheMappingsOrTheKnownKeysWithAtLeastOne() {
        assertEquals(Set.of("ua", "ub", "uc", "ud"), Escalation.serviceableKeys(FOUR, List.of("zz"), List.of("yy"), "ua"));
        assertEquals(Set.of("fresh"), Escalation.serviceableKeys(ModelMappings.PASS_THROUGH, List.of(), List.of(),
                "fresh"));
        ModelMappings catchAll = ModelMappings.of(List.of(new ModelMapping("*", "*")));
        assertEquals(Set.of("r", "s", "cur"), Escalation.serviceableKeys(catchAll, List.of("r"), List.of("s", "r"), "cur"));
        ModelMappings mixed = ModelMappings.of(List.of(new ModelMapping("a", "ua"), new ModelMapping("*", "fallback")));
        assertEquals(Set.of("ua", "fallback"), Escalation.serviceableKeys(mixed, List.of(), List.of(), "fallback"));
    }

    @Test
    void anEmptyDenominatorNeverEscalates() {
        ModelState paused = ModelState.fresh(7, "ua", ModelStatus.PAUSED, T0);
        assertFalse(Escalation.allUnavailable(Set.of("ua"), List.of(paused), T0));
        assertFalse(Escalation.allUnavailable(Set.of(), List.of(), T0));
    }
}
