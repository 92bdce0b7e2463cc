package dev.detour.core.cooldown;

import static dev.detour.core.cooldown.FailureMother.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.ModelState;
import dev.detour.core.failure.Failure;
import org.junit.jupiter.api.Test;

/** The seed's "full timeline of one outage", replayed on the pure functions. */
class OutageTimelineTest {

    @Test
    void aRateLimitOnOneModelParksOnlyThatModelAndSuccessBringsItBack() {
        AccountModelsState primary = new AccountModelsState(FailureMother.primary());

        // T+0: 429 → no same-account retry (C-4', revised from "retry after 200 ms") → ONE model-scoped failure
        Failure first = FailureMother.status(429, "upstream-sol", T0);
        assertFalse(first.retrySameAccount());
        FailureOutcome t0 = primary.fail(first, T0.plusMillis(200));
        ModelState sol = primary.row("upstream-sol");
        assertEquals(T0.plusMillis(10_200), sol.cooldownUntil());
        assertEquals(1, primary.account.failure().transientFailureCount()); // "1 error"
        assertNull(primary.account.failure().cooldownUntil()); // no 冷却 N 秒 badge
        assertEquals(1, primary.unavailableModels(T0.plusSeconds(1))); // "模型 1 不可用"
        assertFalse(t0.escalated());

        // T+2: a glm-5.3 request succeeds → account traces cleared, no glm row, sol untouched
        SuccessOutcome t2 = primary.succeed("upstream-glm", false, T0.plusSeconds(2));
        assertTrue(t2.accountChanged());
        assertEquals(RowChange.NONE, t2.rowChange());
        assertEquals(AccountFailureState.CLEAN, primary.account.failure());
        assertEquals(sol, primary.row("upstream-sol"));

        // T+10 (+200 ms): sol's cooldown has expired → 429 again → failure #2, cools until T+20
        var t10 = T0.plusMillis(10_200);
        assertFalse(primary.row("upstream-sol").coolingAt(t10));
        primary.fail(FailureMother.status(429, "upstream-sol", t10), t10);
        assertEquals(t10.plusSeconds(10), primary.row("upstream-sol").cooldownUntil());
        assertEquals(2, primary.row("upstream-sol").transientFailureCount());
        assertEquals(1, primary.account.failure().transientFailureCount());

        // T+20: sol succeeds → its row is deleted and the account is zeroed
        SuccessOutcome t20 = primary.succeed("upstream-sol", false, T0.plusSeconds(21));
        assertEquals(RowChange.Action.DELETE, t20.rowChange().action());
        assertTrue(primary.rows.isEmpty());
        assertEquals(AccountFailureState.CLEAN, primary.account.failure());
        assertEquals(0, primary.unavailableModels(T0.plusSeconds(21)));
    }

    @Test
    void aWholesaleOutageEscalatesOnTheSecondModelsFailure() {
        AccountModelsState primary = new AccountModelsState(FailureMother.primary());
        assertFalse(primary.fail(FailureMother.status(502, "upstream-sol", T0), T0).escalated());
        FailureOutcome second = primary.fail(FailureMother.status(502, "upstream-glm", T0.plusSeconds(1)),
                T0.plusSeconds(1));
        assertTrue(second.escalated());
        assertEquals(T0.plusSeconds(11), primary.account.failure().cooldownUntil());
        assertEquals(T0.plusSeconds(11), primary.account.failure().nextRetryAt());
        assertEquals(2, primary.account.failure().transientFailureCount());

        // the account cooldown expires and one success clears the account and that model only
        primary.succeed("upstream-sol", false, T0.plusSeconds(12));
        assertEquals(AccountFailureState.CLEAN, primary.account.failure());
        assertEquals(1, primary.rows.size());
    }
}
