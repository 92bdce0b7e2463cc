package dev.detour.core.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServedModelTest {
    @ParameterizedTest(name = "asked {0}, served {1} → {2}")
    @CsvSource(nullValues = "null", value = {
            "gpt-4o, gpt-4o, true",
            "gpt-4o, gpt-4o-2024-08-06, true",
            "claude-sonnet-4, claude-sonnet-4@20250514, true",
            "gpt-4o, GPT-4o, true",
            "gpt-4o, null, true",
            "gpt-4o, gpt-4o-mini, false",
            "gpt-4, gpt-4-0613, true",
            "gpt-4o, gpt-3.5-turbo, false",
            "gpt-4o, gpt-4, false",
            "claude-opus-4, claude-haiku-4, false"})
    void aServedModelMatchesWhenItIsTheAskedModelOrAVariantOfIt(String asked, String served, boolean matches) {
        assertEquals(matches, ServedModel.matches(asked, served));
    }
}
