package dev.detour.core.cooldown;

import static dev.detour.core.cooldown.FailureMother.SOL_AND_GLM;
import static dev.detour.core.cooldown.FailureMother.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelState;
import dev.detour.core.failure.Failure;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** C-4: the cooldown for the scope is max(window, hint) capped; the uncapped reset is kept. */
class RetryAfterWindowTest {

    static FailurePolicy policy(boolean cooldown, boolean honor, int capSeconds) {
        return new FailurePolicy(2, 200, cooldown, 10, 10, true, honor, capSeconds);
    }

    static ModelState rowAfter429(FailurePolicy policy, Map<String, String> headers) {
        AccountModelsState s = new AccountModelsState(FailureMother.account(SOL_AND_GLM, policy));
        return s.fail(FailureMother.status(429, headers, "", "upstream-sol", T0), T0).modelRow();
    }

    @ParameterizedTest(name = "{0}: {1} → cools {2}s, reset_at +{3}s")
    @CsvSource({
            "retry-after, 60, 60, 60",
            "retry-after, 5, 10, 5",
            "retry-after, 7200, 1800, 7200",
            "x-ratelimit-reset-requests, 6m0s, 360, 360",
            "x-ratelimit-reset-tokens, 20ms, 10, 0.02",
            "x-ratelimit-reset-tokens, 1s, 10, 1"})
    void honoredHintsStretchTheWindowUpToTheCap(String header, String value, long cools, double resetSeconds) {
        ModelState row = rowAfter429(policy(true, true, 1800), Map.of(header, value));
        assertEquals(T0.plusSeconds(cools), row.cooldownUntil());
        assertEquals(T0.plusMillis((long) (resetSeconds * 1000)), row.rateLimitResetAt());
    }

    @Test
    void anthropicUnifiedResetAndAnHttpDateAreHintsToo() {
        long epoch = T0.plusSeconds(120).getEpochSecond();
        assertEquals(T0.plusSeconds(120), rowAfter429(policy(true, true, 1800),
                Map.of("anthropic-ratelimit-unified-reset", Long.toString(epoch))).cooldownUntil());
        assertEquals(T0.plusSeconds(300), rowAfter429(policy(true, true, 1800),
                Map.of("retry-after", "Wed, 02 Sep 2026 10:05:00 GMT")).cooldownUntil());
    }

    @Test
    void ignoringRetryAfterKeepsTheConfiguredWindow() {
        ModelState row = rowAfter429(policy(true, false, 1800), Map.of("retry-after", "600"));
        assertEquals(T0.plusSeconds(10), row.cooldownUntil());
        assertEquals(T0.plusSeconds(10), row.rateLimitResetAt()); // no hint honored: the window itself
    }

    @Test
    void anHonoredHintAppliesEvenWithCooldownOff() {
        ModelState row = rowAfter429(policy(false, true, 1800), Map.of("retry-after", "30"));
        assertEquals(T0.plusSeconds(30), row.cooldownUntil());
        assertNull(rowAfter429(policy(false, true, 1800), Map.of()).cooldownUntil());
    }

    @Test
    void theAccountScopeHonorsTheHintToo() {
        AccountModelsState s = new AccountModelsState(FailureMother.account(SOL_AND_GLM, policy(true, true, 100)));
        Failure f = FailureMother.status(403, Map.of("retry-after", "3600"), "", "upstream-sol", T0);
        FailureOutcome out = s.fail(f, T0);
        assertEquals(T0.plusSeconds(100), out.accountFailure().cooldownUntil());
        assertEquals(T0.plusSeconds(100), out.accountFailure().nextRetryAt());
    }

    @Test
    void aNonRateLimitCooldownCarriesNoLedgerReset() {
        ModelState row = rowAfter503WithRetryAfter();
        assertEquals(T0.plusSeconds(60), row.cooldownUntil());
        assertNull(row.rateLimitResetAt());
    }

    private static ModelState rowAfter503WithRetryAfter() {
        AccountModelsState s = new AccountModelsState(FailureMother.primary());
        return s.fail(FailureMother.status(503, Map.of("retry-after", "60"), "", "upstream-sol", T0), T0).modelRow();
    }

    @Test
    void theWindowMathsDirectly() {
        Failure hint = FailureMother.status(429, Map.of("retry-after", "100000"), "", "m", T0);
        Instant until = CooldownWindow.until(policy(true, true, 86_400), hint, T0);
        assertEquals(T0.plusSeconds(86_400), until);
        FailurePolicy longWindow = new FailurePolicy(2, 200, true, 7200, 10, true, true, 1800);
        assertEquals(T0.plusSeconds(7200), CooldownWindow.until(longWindow, hint, T0)); // the cap never shortens the window
    }

    // ---- SPEC §12 C-4': reset hints lengthen a cooldown only on a 429 or a quota answer ----

    static ModelState rowAfter(int status, Map<String, String> headers, String body) {
        AccountModelsState s = new AccountModelsState(FailureMother.account(SOL_AND_GLM, policy(true, true, 1800)));
        return s.fail(FailureMother.status(status, headers, body, "upstream-sol", T0), T0).modelRow();
    }

    @ParameterizedTest(name = "{0} with {1}: {2} → cools {3}s")
    @CsvSource({
            "429, x-ratelimit-reset-requests, 25m, 1500",
            "503, x-ratelimit-reset-requests, 25m, 10",   // an outage, not a 25-minute wait: the policy window
            "500, x-ratelimit-reset-tokens, 6m0s, 10",
            "529, anthropic-ratelimit-unified-reset, +600, 10",
            "429, anthropic-ratelimit-unified-reset, +600, 600",
            "429, anthropic-ratelimit-tokens-reset, +120, 120",
            "503, anthropic-ratelimit-requests-reset, +120, 10",
            "503, retry-after, 60, 60",                    // Retry-After on a 503 is still honoured
            "503, retry-after, 7200, 1800",                // … up to the cap
            "429, retry-after, 20, 20"})
    void resetHintsOnlyStretchARateLimitWhileRetryAfterCountsOnAnyStatus(int status, String header, String value,
            long cools) {
        String v = value.startsWith("+") ? T0.plusSeconds(Long.parseLong(value.substring(1))).toString() : value;
        assertEquals(T0.plusSeconds(cools), rowAfter(status, Map.of(header, v), "").cooldownUntil());
    }

    @Test
    void willResetAtInTheMessageOnlyCountsOnA429() {
        String body = "{\"error\":{\"message\":\"usage limit reached, will reset at 2026-09-02 10:20:00\"}}";
        assertEquals(T0.plusSeconds(1200), rowAfter(429, Map.of(), body).cooldownUntil());
        assertEquals(T0.plusSeconds(10), rowAfter(503, Map.of(), body).cooldownUntil());
    }

    @ParameterizedTest(name = "{0} {1}: {2} → upstream-stated until +{3}s")
    @CsvSource(nullValues = "null", value = {
            "429, retry-after, 20, 20",
            "429, retry-after, 5, 5",            // stated 5 s; the rest of the 10 s window is Detour's own
            "429, retry-after, 7200, 1800",      // capped
            "429, x-ratelimit-reset-requests, 2m, 120",
            "429, null, null, null",             // no hint: Detour's own window
            "503, retry-after, 60, null",        // only a 429 states a rate-limit window
            "529, retry-after, 60, null"})
    void aRateLimitWithAnHonouredHintRecordsTheUpstreamStatedWindow(int status, String header, String value,
            Long statedSeconds) {
        ModelState row = rowAfter(status, header == null ? Map.of() : Map.of(header, value), "");
        assertEquals(statedSeconds == null ? null : T0.plusSeconds(statedSeconds), row.statedUntil());
    }

    @Test
    void ignoringRetryAfterStatesNoWindow() {
        assertNull(rowAfter429(policy(true, false, 1800), Map.of("retry-after", "600")).statedUntil());
    }
}
