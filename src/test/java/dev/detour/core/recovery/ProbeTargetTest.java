package dev.detour.core.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.account.Platform;
import dev.detour.core.account.RecoveryRule;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** R-3 healthcheck: probe the model most in need, mapped back to a client-side name. */
class ProbeTargetTest {
    private static final Instant NOW = Instant.parse("2026-08-11T10:00:00Z");
    private static final ModelMappings THREE = ModelMappings.of(List.of(new ModelMapping("*", "upstream-default"),
            new ModelMapping("gpt-5.6-sol", "upstream-sol"), new ModelMapping("glm-5.3", "upstream-glm"),
            new ModelMapping("kimi", "upstream-kimi")));

    private static Account account(ModelMappings mappings) {
        return new Account(7, "primary", 1, Platform.OPENAI_COMPATIBLE, "https://relay.example", mappings,
                Platform.OPENAI_COMPATIBLE.defaultFamilies(), 0, 10, true, false, AccountStatus.ERROR, null, 0,
                FailurePolicy.SEED_DEFAULTS, RecoveryRule.OFF, AccountFailureState.CLEAN, 0, 0, null);
    }

    private static ModelState row(String key, ModelStatus status, Instant cooldownUntil, Instant updatedAt) {
        return new ModelState(7, key, status, 1, cooldownUntil, null, 0, null, "upstream_status", "boom", null,
                updatedAt, updatedAt);
    }

    @Test
    void theOldestUpdatedNonPausedRowWithAnExpiredCooldownIsProbedUnderItsClientName() {
        List<ModelState> rows = List.of(
                row("upstream-sol", ModelStatus.ERROR, null, NOW.minusSeconds(60)),
                row("upstream-kimi", ModelStatus.OK, NOW.minusSeconds(1), NOW.minusSeconds(600)),
                row("upstream-glm", ModelStatus.PAUSED, null, NOW.minusSeconds(900)));
        assertEquals(Optional.of("kimi"), ProbeTarget.choose(account(THREE), rows, NOW),
                "kimi is the oldest row that is neither paused nor still cooling");
    }

    @Test
    void aRowStillCoolingIsNotProbed() {
        List<ModelState> rows = List.of(row("upstream-kimi", ModelStatus.OK, NOW.plusSeconds(5), NOW.minusSeconds(600)),
                row("upstream-glm", ModelStatus.OK, null, NOW.minusSeconds(10)));
        assertEquals(Optional.of("glm-5.3"), ProbeTarget.choose(account(THREE), rows, NOW));
    }

    @Test
    void withoutSuchARowTheFirstNonCatchAllMappingIsProbed() {
        List<ModelState> rows = List.of(row("upstream-glm", ModelStatus.PAUSED, null, NOW.minusSeconds(900)));
        assertEquals(Optional.of("gpt-5.6-sol"), ProbeTarget.choose(account(THREE), rows, NOW),
                "the catch-all is never the default");
    }

    @Test
    void aRowWhoseMappingWasRemovedFallsThroughToTheNextCandidate() {
        List<ModelState> rows = List.of(row("upstream-gone", ModelStatus.ERROR, null, NOW.minusSeconds(900)),
                row("upstream-glm", ModelStatus.ERROR, null, NOW.minusSeconds(100)));
        assertEquals(Optional.of("glm-5.3"), ProbeTarget.choose(account(THREE), rows, NOW));
    }

    @Test
    void aPassThroughAccountProbesTheModelKeyVerbatim() {
        List<ModelState> rows = List.of(row("deepseek-v4", ModelStatus.ERROR, null, NOW.minusSeconds(100)));
        assertEquals(Optional.of("deepseek-v4"), ProbeTarget.choose(account(ModelMappings.PASS_THROUGH), rows, NOW));
        assertEquals(Optional.empty(), ProbeTarget.choose(account(ModelMappings.PASS_THROUGH), List.of(), NOW),
                "nothing known to probe");
    }

    @Test
    void aProbeIsDueWhenNoneRanYetOrTheIntervalPassed() {
        assertTrue(ProbeSchedule.due(null, 30, NOW), "restarting the app restarts the clock");
        assertFalse(ProbeSchedule.due(NOW.minusSeconds(29 * 60), 30, NOW));
        assertTrue(ProbeSchedule.due(NOW.minusSeconds(30 * 60), 30, NOW));
    }
}
