package dev.detour.admin.board;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** U-2 status tag and filters, U-3 aliases / 已移除映射: the console's rules without a browser. */
class AccountCardTest {
    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    @ParameterizedTest(name = "status {0} with {1} transient failures shows the error count: {2}")
    @CsvSource({"ok,0,false", "ok,1,true", "warning,3,true", "error,2,false", "revoked,5,false", "paused,1,false"})
    void theErrorCountReplacesOnlyOrdinaryStatusLabels(String status, int failures, boolean showsCount) {
        assertEquals(showsCount, card("a", status, failures, 0, List.of()).showsErrorCount());
    }

    @ParameterizedTest(name = "filter status={0} problems={1} q={2} matches: {3}")
    @CsvSource({",false,,true", "failing,false,,true", "cooling,false,,false", "ok,false,,true", "paused,false,,false",
        ",true,,true", ",false,RELAY,true", ",false,other,false"})
    void filtersMatchByStatusProblemsAndName(String status, boolean problems, String query, boolean matches) {
        AccountCard failing = card("relay-a", "ok", 2, 0, List.of());
        assertEquals(matches, new BoardFilter(null, status, problems, query).matches(failing));
    }

    @ParameterizedTest(name = "mappings {0}: aliases of {1} = [{2}], removed: {3}")
    @CsvSource(delimiter = ';', value = {
        "gpt-a>up-a,gpt-b>up-a; up-a; gpt-a,gpt-b; false",
        "gpt-a>up-a; up-gone; ; true",
        "; any-model; ; false",
        "*>*; any-model; ; false",
        "*>up-all; up-all; ; false",
        "*>up-all; up-other; ; true"})
    void aliasesAndMappingRemoved(String mappings, String key, String aliases, boolean removed) {
        ModelLine line = ModelLine.of(key, mappings(mappings), null, NOW);
        assertEquals(aliases == null ? List.of() : List.of(aliases.split(",")), line.aliases());
        assertEquals(removed, line.mappingRemoved());
    }

    @ParameterizedTest(name = "row status {0}, cooling {1}s → reason {2}")
    @CsvSource({"ok,30,cooling", "ok,0,ok", "error,0,error", "paused,30,paused"})
    void theReasonIsPausedThenErrorThenCooling(String status, int coolingSeconds, String reason) {
        ModelState row = new ModelState(1, "up-a", ModelStatus.fromWire(status), 1,
                coolingSeconds > 0 ? NOW.plusSeconds(coolingSeconds) : null, null, 0, null, "upstream_status", "x", null,
                NOW, NOW);
        ModelLine line = ModelLine.of("up-a", ModelMappings.PASS_THROUGH, row, NOW);
        assertEquals(reason, line.reason());
        assertEquals(!"ok".equals(reason), line.unavailable());
    }

    @org.junit.jupiter.api.Test
    void anAccountWithOnlyAReminderIsAProblemAndHasAPanel() {
        AccountCard card = new AccountCard(1, "a", "g", null, "openai", 0, 1, true, "ok", 0, 0, 0, null, null, 0, null,
                List.of(), List.of("budget_pool"), AccountCard.Protection.NONE);
        assertTrue(card.problem());
        assertTrue(card.hasPanel());
        assertFalse(card("b", "ok", 0, 0, List.of()).problem());
    }

    @ParameterizedTest(name = "breaker {0}s, half-open {1}, backoff streak {2} → a problem: {3}")
    @org.junit.jupiter.params.provider.CsvSource({"0,false,0,false", "1800,false,0,true", "0,true,0,true", "0,false,2,true"})
    void anOpenOrHalfOpenBreakerOrABackoffStreakIsAProblem(long breaker, boolean halfOpen, int backoff, boolean problem) {
        AccountCard card = new AccountCard(1, "a", "g", null, "openai", 0, 1, true, "ok", 0, 0, 0, null, null, 0, null,
                List.of(), List.of(), new AccountCard.Protection(breaker, halfOpen, backoff));
        assertEquals(problem, card.problem());
        assertEquals(problem, card.protection().any());
    }

    private static AccountCard card(String name, String status, int failures, long cooldown, List<ModelLine> models) {
        return new AccountCard(1, name, "default", null, "openai", 0, 10, true, status, failures, 0, 0, null, null,
                cooldown, null, models, List.of(), AccountCard.Protection.NONE);
    }

    private static ModelMappings mappings(String spec) {
        if (spec == null) {
            return ModelMappings.PASS_THROUGH;
        }
        return ModelMappings.of(java.util.Arrays.stream(spec.split(","))
                .map(p -> new ModelMapping(p.split(">")[0], p.split(">")[1])).toList());
    }
}
