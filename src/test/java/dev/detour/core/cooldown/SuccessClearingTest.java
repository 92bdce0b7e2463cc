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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** C-5: what a success clears, and that a clean success writes nothing. */
class SuccessClearingTest {
    static final AccountFailureState DIRTY = new AccountFailureState(3, T0, T0, "upstream_status",
            "upstream returned 429", "{}", 1, "sha256:x", 2, 1, T0, 1);

    static ModelState failedRow(ModelStatus status) {
        return new ModelState(7, "upstream-sol", status, 2, T0.plusSeconds(10), T0.plusSeconds(30), 1, "sha256:x",
                "upstream_status", "upstream returned 429", "{}", T0, T0);
    }

    @Test
    void aCleanAccountWithNoRowNeedsNoWriteAtAll() {
        SuccessOutcome out = CooldownRules.afterSuccess(FailureMother.primary(), null, false, T0);
        assertFalse(out.accountChanged());
        assertFalse(out.changed());
        assertEquals(RowChange.NONE, out.rowChange());
    }

    @Test
    void accountFailureTracesAreZeroedButTheStatusIsKept() {
        Account account = FailureMother.primary().withFailure(DIRTY).withStatus(AccountStatus.WARNING);
        SuccessOutcome out = CooldownRules.afterSuccess(account, null, false, T0);
        assertTrue(out.accountChanged());
        assertEquals(AccountFailureState.CLEAN, out.accountFailure());
        assertEquals(AccountStatus.WARNING, out.status());
    }

    @ParameterizedTest(name = "row {0} → {1}")
    @CsvSource({"OK, DELETE", "ERROR, DELETE", "PAUSED, UPSERT"})
    void thisModelsRowIsDeletedUnlessPaused(ModelStatus status, RowChange.Action action) {
        SuccessOutcome out = CooldownRules.afterSuccess(FailureMother.primary(), failedRow(status), false,
                T0.plusSeconds(5));
        assertEquals(action, out.rowChange().action());
        if (action == RowChange.Action.UPSERT) {
            ModelState reset = out.rowChange().row();
            assertEquals(ModelStatus.PAUSED, reset.status());
            assertEquals(new ModelState(7, "upstream-sol", ModelStatus.PAUSED, 0, null, null, 0, null, null, null, null,
                    T0, T0.plusSeconds(5)), reset);
        }
    }

    @Test
    void aCleanPausedRowIsLeftAlone() {
        ModelState paused = ModelState.fresh(7, "upstream-sol", ModelStatus.PAUSED, T0);
        assertEquals(RowChange.NONE, CooldownRules.afterSuccess(FailureMother.primary(), paused, false, T0).rowChange());
    }

    @ParameterizedTest(name = "{0} model test {1} → {2}")
    @CsvSource({
            "ERROR, true, OK", "WARNING, true, OK", "OK, true, OK", "PAUSED, true, PAUSED", "REVOKED, true, REVOKED",
            "ERROR, false, ERROR", "WARNING, false, WARNING"})
    void aSuccessfulModelTestPullsErrorAndWarningBackToOk(AccountStatus before, boolean modelTest,
            AccountStatus after) {
        Account account = FailureMother.primary().withStatus(before);
        SuccessOutcome out = CooldownRules.afterSuccess(account, null, modelTest, T0);
        assertEquals(after, out.status());
        assertEquals(before != after, out.accountChanged());
    }
}
