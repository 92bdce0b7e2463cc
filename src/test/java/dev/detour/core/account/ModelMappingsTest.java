package dev.detour.core.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.ValidationException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** P-12: exact beats any pattern, the longest matching prefix wins, the catch-all comes last; to "*" passes the name. */
class ModelMappingsTest {
    /** Written in a deliberately unhelpful order: the rule, not the list order, decides. */
    private static final ModelMappings MIXED = ModelMappings.of(List.of(
            new ModelMapping("*", "fallback-up"),
            new ModelMapping("claude-*", "*"),
            new ModelMapping("claude-sonnet-*", "claude-sonnet-4-5-up"),
            new ModelMapping("claude-sonnet-4-5-20250929", "sonnet-exact-up"),
            new ModelMapping("claude-opus-4-*", "claude-opus-4-1-up")));

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
            "claude-sonnet-4-5-20250929, sonnet-exact-up",   // exact beats every pattern
            "claude-sonnet-4-6,          claude-sonnet-4-5-up", // claude-sonnet-* is longer than claude-*
            "claude-sonnet-,             claude-sonnet-4-5-up", // * matches zero characters too
            "claude-opus-4-1-20250805,   claude-opus-4-1-up",
            "claude-opus-3,              claude-opus-3",        // only claude-* matches: to * = the requested name
            "claude-haiku-4-5,           claude-haiku-4-5",
            "gpt-5.6-sol,                fallback-up",          // nothing else matches: the catch-all
            "claude,                     fallback-up",          // claude-* needs the dash
    })
    void theMostSpecificMappingDecides(String requested, String upstream) {
        assertEquals(upstream, MIXED.upstreamNameFor(requested).orElseThrow());
    }

    @Test
    void withoutACatchAllAnUnmatchedNameIsNotServed() {
        ModelMappings m = ModelMappings.of(List.of(new ModelMapping("claude-sonnet-*", "sonnet-up")));
        assertEquals("sonnet-up", m.upstreamNameFor("claude-sonnet-4-5-20250929").orElseThrow());
        assertTrue(m.upstreamNameFor("claude-opus-4-1").isEmpty());
        assertTrue(m.upstreamNameFor("xclaude-sonnet-4").isEmpty(), "a prefix, not a substring");
    }

    @Test
    void aPatternPassingNamesThroughHasNoFixedModelSetButOneWithAFixedTargetHas() {
        ModelMappings through = ModelMappings.of(List.of(new ModelMapping("claude-*", "*")));
        ModelMappings fixed = ModelMappings.of(List.of(new ModelMapping("claude-sonnet-*", "claude-sonnet-4-5")));

        assertTrue(through.hasOnlyCatchAll());
        assertEquals(List.of(), through.modelKeys());
        assertFalse(fixed.hasOnlyCatchAll());
        assertEquals(List.of("claude-sonnet-4-5"), fixed.modelKeys());
        assertEquals(List.of("claude-sonnet-4-5"), fixed.clientNamesFor("claude-sonnet-4-5"),
                "the target is itself a name the pattern takes");
        assertEquals(List.of(), ModelMappings.of(List.of(new ModelMapping("claude-sonnet-*", "sonnet-up")))
                .clientNamesFor("sonnet-up"), "no concrete client name leads there");
    }

    @ParameterizedTest(name = "from {0} to {1} → {2}")
    @CsvSource({
            "claude-*-sonnet, x,         validation.model_mapping_wildcard",
            "*claude,         x,         validation.model_mapping_wildcard",
            "**,              x,         validation.model_mapping_wildcard",
            "claude-**,       x,         validation.model_mapping_wildcard",
            "claude-*,        claude-*,  validation.model_mapping_wildcard",
            "claude-*,        up-*-x,    validation.model_mapping_wildcard",
            "claude-sonnet,   *,         validation.model_mappings",
    })
    void malformedPatternsAreRefusedWithAStableCode(String from, String to, String code) {
        ValidationException e = assertThrows(ValidationException.class,
                () -> ModelMappings.of(List.of(new ModelMapping(from, to))));
        assertEquals(code, e.code());
        assertEquals("model_mappings", e.field());
    }

    @Test
    void wellFormedPatternsAreAccepted() {
        List<ModelMapping> ok = new ArrayList<>(List.of(new ModelMapping("*", "*"), new ModelMapping("claude-*", "*"),
                new ModelMapping("claude-sonnet-*", "claude-sonnet-4-5"), new ModelMapping("gpt-5", "gpt-5")));
        assertEquals(4, ModelMappings.of(ok).entries().size());
    }
}
