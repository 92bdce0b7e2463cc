package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.core.account.EndpointFamily;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * B-3: Claude 4.7 and later reject {@code budget_tokens} (400) and take adaptive thinking with an effort level;
 * earlier models keep the budget (4.6 still accepts it). Chosen per upstream model.
 */
class AdaptiveThinkingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT = "{\"model\":\"m\",\"max_tokens\":64000,\"reasoning_effort\":\"%s\","
            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    @ParameterizedTest(name = "{0} → adaptive {1}")
    @CsvSource({"claude-opus-4-7, true", "claude-opus-4-8-20260301, true", "claude-fable-5, true",
            "anthropic.claude-opus-4-7, true", "claude-sonnet-4-6, false", "claude-opus-4-5-20251101, false",
            "claude-sonnet-4-20250514, false", "claude-3-7-sonnet-20250219, false", "gpt-5.6, false"})
    void onlyClaudeFourSevenAndLaterTakeAdaptiveThinkingOnly(String model, boolean adaptive) {
        assertEquals(adaptive, ReasoningLevels.adaptiveOnly(model));
    }

    @ParameterizedTest(name = "effort {0} → {1}")
    @CsvSource({"minimal, low", "low, low", "medium, medium", "high, high"})
    void anAdaptiveOnlyModelGetsAdaptiveThinkingWithAnEffortAndNoBudget(String effort, String expected)
            throws Exception {
        JsonNode out = Bridge.request(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.MESSAGES,
                JSON.readTree(String.format(CHAT, effort)), "claude-opus-4-7");

        assertEquals("adaptive", out.path("thinking").path("type").asText(), out.toString());
        assertFalse(out.path("thinking").has("budget_tokens"), out.toString());
        assertEquals(expected, out.path("output_config").path("effort").asText(), out.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"claude-sonnet-4-6", "claude-sonnet-4-5"})
    void earlierModelsKeepTheBudget(String model) throws Exception {
        JsonNode out = Bridge.request(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.MESSAGES,
                JSON.readTree(String.format(CHAT, "high")), model);

        assertEquals("enabled", out.path("thinking").path("type").asText());
        assertEquals(32000, out.path("thinking").path("budget_tokens").asInt());
    }
}
