package dev.detour.core.cooldown;

import static dev.detour.core.cooldown.FailureMother.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** U-4 model operations and recovery actions as pure state changes. */
class ManualOpsTest {
    static final Instant LATER = T0.plusSeconds(60);

    static ModelState cooling(String key) {
        return new ModelState(7, key, ModelStatus.OK, 1, T0.plusSeconds(10), null, 0, null, "upstream_status",
                "upstream returned 500", null, T0, T0);
    }

    static ModelState withStatus(ModelState r, ModelStatus status) {
        return new ModelState(r.accountId(), r.modelKey(), status, r.transientFailureCount(), r.cooldownUntil(),
                r.rateLimitResetAt(), r.semanticStreakCount(), r.semanticStreakFingerprint(), r.lastFailureKind(),
                r.lastFailureMessage(), r.lastFailureResponse(), r.createdAt(), r.updatedAt());
    }

    @Test
    void pausingANeverFailedModelCreatesAPausedRow() {
        RowChange change = ModelOps.pause(7, "upstream-glm", null, LATER);
        assertEquals(RowChange.upsert(ModelState.fresh(7, "upstream-glm", ModelStatus.PAUSED, LATER)), change);
    }

    @Test
    void pausingAFailedRowKeepsItsTracesAndPausingTwiceDoesNothing() {
        RowChange change = ModelOps.pause(7, "upstream-sol", cooling("upstream-sol"), LATER);
        assertEquals(ModelStatus.PAUSED, change.row().status());
        assertEquals(1, change.row().transientFailureCount());
        assertEquals(RowChange.NONE, ModelOps.pause(7, "upstream-sol", change.row(), LATER));
    }

    @Test
    void resumingACleanPauseDeletesTheRowAndATracedOneGoesBackToOk() {
        ModelState cleanPause = ModelState.fresh(7, "m", ModelStatus.PAUSED, T0);
        assertEquals(RowChange.Action.DELETE, ModelOps.resume(cleanPause, LATER).action());
        RowChange traced = ModelOps.resume(withStatus(cooling("m"), ModelStatus.PAUSED), LATER);
        assertEquals(ModelStatus.OK, traced.row().status());
        assertEquals(RowChange.NONE, ModelOps.resume(cooling("m"), LATER));
        assertEquals(RowChange.NONE, ModelOps.resume(null, LATER));
    }

    @Test
    void clearingDropsCooldownAndErrorButKeepsAPause() {
        assertEquals(RowChange.Action.DELETE, ModelOps.clear(cooling("m"), LATER).action());
        assertEquals(RowChange.Action.DELETE, ModelOps.clear(withStatus(cooling("m"), ModelStatus.ERROR), LATER)
                .action());
        RowChange paused = ModelOps.clear(withStatus(cooling("m"), ModelStatus.PAUSED), LATER);
        assertEquals(ModelStatus.PAUSED, paused.row().status());
        assertEquals(0, paused.row().transientFailureCount());
        assertEquals(null, paused.row().cooldownUntil());
        assertEquals(RowChange.NONE, ModelOps.clear(ModelState.fresh(7, "m", ModelStatus.PAUSED, T0), LATER));
    }

    @Test
    void clearAllSkipsPausedAndHealthyRows() {
        ModelState healthy = ModelState.fresh(7, "healthy", ModelStatus.OK, T0);
        ModelState paused = withStatus(cooling("paused"), ModelStatus.PAUSED);
        ModelState error = withStatus(cooling("error"), ModelStatus.ERROR);
        List<RowChange> changes = ModelOps.clearAll(List.of(healthy, paused, cooling("cooling"), error));
        assertEquals(List.of(RowChange.delete(cooling("cooling")), RowChange.delete(error)), changes);
    }

    @Test
    void fullReactivationClearsEverythingAndDeletesNonPausedRows() {
        Account account = FailureMother.primary().withStatus(AccountStatus.ERROR)
                .withFailure(SuccessClearingTest.DIRTY);
        ModelState paused = withStatus(cooling("p"), ModelStatus.PAUSED);
        RecoveryOps.Recovery r = RecoveryOps.fullReactivation(account, List.of(cooling("a"), paused, cooling("b")));
        assertTrue(r.applied());
        assertEquals(AccountStatus.OK, r.status());
        assertEquals(AccountFailureState.CLEAN, r.failure());
        assertEquals(List.of(cooling("a"), cooling("b")), r.rowsToDelete());
    }

    @Test
    void fullReactivationNeverTouchesPausedOrRevokedAccounts() {
        for (AccountStatus st : List.of(AccountStatus.PAUSED, AccountStatus.REVOKED)) {
            Account account = FailureMother.primary().withStatus(st).withFailure(SuccessClearingTest.DIRTY);
            RecoveryOps.Recovery r = RecoveryOps.fullReactivation(account, List.of(cooling("a")));
            assertFalse(r.applied());
            assertEquals(st, r.status());
            assertEquals(List.of(), r.rowsToDelete());
        }
        assertFalse(RecoveryOps.fullReactivation(FailureMother.primary(), List.of()).applied());
    }

    @Test
    void explicitTestRecoveryClearsTheAccountColumnsOnlyNeverSiblingRows() {
        Account account = FailureMother.primary().withStatus(AccountStatus.ERROR).withFailure(SuccessClearingTest.DIRTY);
        RecoveryOps.Recovery r = RecoveryOps.explicitTestRecovery(account);
        assertTrue(r.applied());
        assertEquals(AccountStatus.OK, r.status());
        assertEquals(AccountFailureState.CLEAN, r.failure());
        assertEquals(List.of(), r.rowsToDelete());
        assertEquals(AccountStatus.OK, RecoveryOps.explicitTestRecovery(account.withStatus(AccountStatus.PAUSED))
                .status()); // a person's test is how they learn a paused account is back
    }

    @Test
    void healthcheckRecoveryLeavesPausedAndRevokedAlone() {
        Account paused = FailureMother.primary().withStatus(AccountStatus.PAUSED).withFailure(SuccessClearingTest.DIRTY);
        assertFalse(RecoveryOps.healthcheckRecovery(paused).applied());
        Account error = FailureMother.primary().withStatus(AccountStatus.ERROR);
        assertEquals(AccountStatus.OK, RecoveryOps.healthcheckRecovery(error).status());
    }

    @Test
    void automationNeverRecoversAnAccountItCannotRead() {
        // D-4: an unreadable stored status may be a pause written by a newer build
        Account unreadable = FailureMother.primary().withStatus(AccountStatus.ERROR).withFailure(SuccessClearingTest.DIRTY)
                .withConfigError("status: unknown status 'held'");
        assertFalse(RecoveryOps.fullReactivation(unreadable, List.of(cooling("a"))).applied());
        assertFalse(RecoveryOps.healthcheckRecovery(unreadable).applied());
    }
}
