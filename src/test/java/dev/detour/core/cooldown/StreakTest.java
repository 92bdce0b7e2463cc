package dev.detour.core.cooldown;

import static dev.detour.core.cooldown.FailureMother.SOL_AND_GLM;
import static dev.detour.core.cooldown.FailureMother.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** F-6: fingerprinted streaks on model rows; threshold 3 in these tests. */
class StreakTest {

    @ParameterizedTest(name = "{0} → count {1}, status {2}")
    @CsvSource({
            "A, 1, OK", "A A, 2, OK", "A A A, 3, ERROR", "A A A A, 3, ERROR",
            "A B, 1, OK", "A A B, 1, OK", "A B B B, 3, ERROR", "A A B A, 1, OK"})
    void sameFingerprintGrowsTheStreakAndTheThresholdFlipsTheRow(String messages, int count, ModelStatus status) {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        Instant t = T0;
        for (String m : messages.split(" ")) {
            s.fail(FailureMother.semantic("broken " + m, "upstream-sol", t), t);
            t = t.plusSeconds(60);
        }
        ModelState row = s.row("upstream-sol");
        assertEquals(count, row.semanticStreakCount());
        assertEquals(status, row.status());
        assertEquals(messages.split(" ").length, row.transientFailureCount());
    }

    @ParameterizedTest(name = "error_status_enabled={0} cooldown_enabled={1} → {2}")
    @CsvSource({"true, true, ERROR", "false, true, OK", "true, false, OK", "false, false, OK"})
    void switchesKeepCountingButDoNotFlip(boolean errorStatus, boolean cooldown, ModelStatus expected) {
        FailurePolicy policy = new FailurePolicy(2, 200, cooldown, 10, 3, errorStatus, true, 1800);
        AccountModelsState s = new AccountModelsState(FailureMother.account(SOL_AND_GLM, policy));
        for (int i = 0; i < 5; i++) {
            s.fail(FailureMother.semantic("same", "upstream-sol", T0), T0);
        }
        assertEquals(3, s.row("upstream-sol").semanticStreakCount());
        assertEquals(expected, s.row("upstream-sol").status());
    }

    @Test
    void pausedRowsAndRevokedOrPausedAccountsAreNeverTouchedByTheStreak() {
        AccountModelsState paused = new AccountModelsState(FailureMother.primary());
        paused.rows.put("upstream-sol", ModelState.fresh(7, "upstream-sol", ModelStatus.PAUSED, T0));
        for (int i = 0; i < 4; i++) {
            paused.fail(FailureMother.semantic("same", "upstream-sol", T0), T0);
        }
        assertEquals(ModelStatus.PAUSED, paused.row("upstream-sol").status());
        assertEquals(0, paused.row("upstream-sol").semanticStreakCount());
        for (AccountStatus st : new AccountStatus[] {AccountStatus.REVOKED, AccountStatus.PAUSED}) {
            AccountModelsState s = new AccountModelsState(FailureMother.primary().withStatus(st));
            for (int i = 0; i < 4; i++) {
                s.fail(FailureMother.semantic("same", "upstream-sol", T0), T0);
            }
            assertEquals(ModelStatus.OK, s.row("upstream-sol").status());
            assertEquals(0, s.row("upstream-sol").semanticStreakCount());
        }
    }

    @Test
    void rateLimitsAndOverloadCoolButNeverFeedTheStreak() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        for (int i = 0; i < 5; i++) {
            s.fail(FailureMother.status(429, "upstream-sol", T0), T0);
            s.fail(FailureMother.semantic("Overloaded", "upstream-glm", T0), T0);
        }
        assertEquals(0, s.row("upstream-sol").semanticStreakCount());
        assertEquals(ModelStatus.OK, s.row("upstream-sol").status());
        assertEquals(0, s.row("upstream-glm").semanticStreakCount());
        assertEquals(ModelStatus.OK, s.row("upstream-glm").status());
        assertEquals(5, s.row("upstream-glm").transientFailureCount());
    }

    @Test
    void repeatedServerErrorsOnOneModelDoFeedTheStreak() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        for (int i = 0; i < 3; i++) {
            s.fail(FailureMother.status(503, "upstream-sol", T0), T0);
        }
        assertEquals(ModelStatus.ERROR, s.row("upstream-sol").status());
    }

    @Test
    void theStreakValueRules() {
        Streak one = Streak.NONE.next("a", 3);
        assertEquals(new Streak(1, "a"), one);
        assertEquals(new Streak(2, "a"), one.next("a", 3));
        assertEquals(new Streak(3, "a"), one.next("a", 3).next("a", 3).next("a", 3));
        assertEquals(new Streak(1, "b"), one.next("b", 3));
        assertEquals(new Streak(1, "a"), one.next("a", 1)); // quota channel: threshold 1
    }
}
