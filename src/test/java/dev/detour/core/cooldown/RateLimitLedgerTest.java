package dev.detour.core.cooldown;

import static dev.detour.core.cooldown.FailureMother.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** C-7: models currently rate-limited, with the capped until and the uncapped reset_at. */
class RateLimitLedgerTest {

    @Test
    void rateLimitedModelsAreListedWithUntilAndUncappedResetAt() {
        AccountModelsState s = new AccountModelsState(FailureMother.account(FailureMother.SOL_AND_GLM,
                new dev.detour.core.account.FailurePolicy(2, 200, true, 10, 10, true, true, 1800)));
        s.fail(FailureMother.status(429, Map.of("retry-after", "7200"), "", "upstream-sol", T0), T0);
        s.fail(FailureMother.status(429, "upstream-glm", T0), T0);
        List<RateLimitLedger.Entry> ledger = RateLimitLedger.of(s.rows(), T0.plusSeconds(1));
        assertEquals(List.of(
                new RateLimitLedger.Entry("upstream-sol", T0.plusSeconds(1800), T0.plusSeconds(7200),
                        "upstream returned 429"),
                new RateLimitLedger.Entry("upstream-glm", T0.plusSeconds(10), null, "upstream returned 429")), ledger);
    }

    @Test
    void expiredAndNonRateLimitCooldownsAreNotListed() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        s.fail(FailureMother.status(429, "upstream-sol", T0), T0);
        s.fail(FailureMother.status(503, "upstream-glm", T0), T0);
        assertEquals(List.of("upstream-sol"),
                RateLimitLedger.of(s.rows(), T0.plusSeconds(5)).stream().map(RateLimitLedger.Entry::model).toList());
        assertEquals(List.of(), RateLimitLedger.of(s.rows(), T0.plusSeconds(10)));
    }

    @Test
    void aLaterNonRateLimitFailureTakesTheModelOffTheLedger() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        s.fail(FailureMother.status(429, "upstream-sol", T0), T0);
        s.fail(FailureMother.status(500, "upstream-sol", T0.plusSeconds(1)), T0.plusSeconds(1));
        assertEquals(List.of(), RateLimitLedger.of(s.rows(), T0.plusSeconds(2)));
    }
}
