package dev.detour.core.cooldown;

import static dev.detour.core.cooldown.FailureMother.COOLDOWN_OFF;
import static dev.detour.core.cooldown.FailureMother.SOL_AND_GLM;
import static dev.detour.core.cooldown.FailureMother.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.failure.Failure;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** C-2, F-1 permanent, F-5 quota channel: what one recorded failure writes at each layer. */
class FailureRecordingTest {

    @Test
    void rateLimitedModelCoolsOnlyThatModelAndTheAccountOnlyCounts() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        FailureOutcome out = s.fail(FailureMother.status(429, "upstream-sol", T0), T0);
        ModelState sol = out.modelRow();
        assertEquals("upstream-sol", sol.modelKey());
        assertEquals(ModelStatus.OK, sol.status());
        assertEquals(1, sol.transientFailureCount());
        assertEquals(T0.plusSeconds(10), sol.cooldownUntil());
        assertEquals(0, sol.semanticStreakCount()); // SPEC example: a 429 leaves streak 0
        assertEquals("upstream_status", sol.lastFailureKind());
        assertEquals("upstream returned 429", sol.lastFailureMessage());
        AccountFailureState acc = out.accountFailure();
        assertEquals(1, acc.transientFailureCount());
        assertNull(acc.cooldownUntil());
        assertNull(acc.nextRetryAt());
        assertEquals("upstream_status", acc.lastFailureKind());
        assertEquals("upstream returned 429", acc.lastFailureMessage());
        assertFalse(out.escalated());
        assertTrue(out.changed());
        assertEquals(AccountStatus.OK, out.status());
    }

    @Test
    void withCooldownOffBothLayersOnlyCount() {
        AccountModelsState s = new AccountModelsState(FailureMother.account(SOL_AND_GLM, COOLDOWN_OFF));
        FailureOutcome model = s.fail(FailureMother.status(503, "upstream-sol", T0), T0);
        assertNull(model.modelRow().cooldownUntil());
        assertEquals(1, model.modelRow().transientFailureCount());
        FailureOutcome account = s.fail(FailureMother.status(401, "upstream-sol", T0), T0);
        assertNull(account.accountFailure().cooldownUntil());
        assertNull(account.accountFailure().nextRetryAt());
        assertEquals(2, account.accountFailure().transientFailureCount());
        assertFalse(model.escalated());
    }

    @Test
    void accountScopedFailureWritesBothTimestampsAndClearsTheAccountStreak() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary().withFailure(
                new AccountFailureState(0, null, null, null, null, null, 1, "sha256:old", 0, 0, null, 0)));
        FailureOutcome out = s.fail(FailureMother.status(401, "upstream-sol", T0), T0);
        assertNull(out.modelRow());
        assertEquals(T0.plusSeconds(10), out.accountFailure().nextRetryAt());
        assertEquals(T0.plusSeconds(10), out.accountFailure().cooldownUntil());
        assertEquals(0, out.accountFailure().semanticStreakCount());
        assertNull(out.accountFailure().semanticStreakFingerprint());
        assertEquals(1, out.accountFailure().transientFailureCount());
    }

    @Test
    void transportFailuresAreAccountScopedEvenWithAModel() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        FailureOutcome out = s.fail(FailureMother.transport("upstream-sol", T0), T0);
        assertNull(out.modelRow());
        assertEquals(T0.plusSeconds(10), out.accountFailure().cooldownUntil());
        assertEquals("transport", out.accountFailure().lastFailureKind());
    }

    @Test
    void permanentFailureRevokesWithNoBackoff() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        Failure revoked = FailureMother.status(400, java.util.Map.of(),
                "{\"error\":\"invalid_grant\"}", "upstream-sol", T0);
        FailureOutcome out = s.fail(revoked, T0);
        assertEquals(AccountStatus.REVOKED, out.status());
        assertNull(out.accountFailure().cooldownUntil());
        assertNull(out.accountFailure().nextRetryAt());
        assertNull(out.modelRow());
        assertEquals("{\"error\":\"invalid_grant\"}", out.accountFailure().lastFailureResponse());
    }

    @Test
    void aClientErrorChangesNothing() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        FailureOutcome out = s.fail(FailureMother.status(400, "upstream-sol", T0), T0);
        assertFalse(out.changed());
        assertNull(out.modelRow());
        assertEquals(AccountFailureState.CLEAN, out.accountFailure());
    }

    @Test
    void quotaFlipsTheAccountToErrorAtOnceAndClearsRetryLaterTraces() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        s.fail(FailureMother.status(401, "upstream-sol", T0), T0); // count 1 + account cooldown
        FailureOutcome out = s.fail(FailureMother.quota("upstream-sol", T0.plusSeconds(1)), T0.plusSeconds(1));
        assertEquals(AccountStatus.ERROR, out.status());
        AccountFailureState acc = out.accountFailure();
        assertEquals(0, acc.transientFailureCount());
        assertNull(acc.nextRetryAt());
        assertNull(acc.cooldownUntil());
        assertEquals(1, acc.semanticStreakCount());
        assertTrue(acc.semanticStreakFingerprint().startsWith("sha256:"));
        assertEquals("semantic_response_failed", acc.lastFailureKind());
        assertEquals("quota exhausted", acc.lastFailureMessage());
        assertNull(out.modelRow());
    }

    @Test
    void quotaWithErrorStatusDisabledCountsButNeverFlips() {
        FailurePolicy noFlip = new FailurePolicy(2, 200, true, 10, 3, false, true, 1800);
        AccountModelsState s = new AccountModelsState(FailureMother.account(SOL_AND_GLM, noFlip));
        FailureOutcome out = s.fail(FailureMother.quota("upstream-sol", T0), T0);
        assertEquals(AccountStatus.OK, out.status());
        assertEquals(1, out.accountFailure().semanticStreakCount());
    }

    @Test
    void quotaNeverTouchesRevokedOrPausedAccounts() {
        for (AccountStatus st : List.of(AccountStatus.REVOKED, AccountStatus.PAUSED)) {
            AccountModelsState s = new AccountModelsState(FailureMother.primary().withStatus(st));
            FailureOutcome out = s.fail(FailureMother.quota("upstream-sol", T0), T0);
            assertEquals(st, out.status());
            assertEquals(0, out.accountFailure().semanticStreakCount());
        }
    }

    @Test
    void warningAccountsFlipToErrorOnQuotaToo() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary().withStatus(AccountStatus.WARNING));
        assertEquals(AccountStatus.ERROR, s.fail(FailureMother.quota(null, T0), T0).status());
    }

    @Test
    void aModelScopedFailureWithNoServiceableKeysGivenStillCountsItsOwnKey() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        FailureOutcome out = s.fail(FailureMother.status(500, "upstream-sol", T0), Set.of(), T0);
        assertTrue(out.escalated()); // the only known key is the failed one: behaves like a one-model account
    }
}
