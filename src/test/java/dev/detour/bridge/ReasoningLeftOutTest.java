package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.core.account.EndpointFamily;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * B-6: for an account that takes no reasoning parameters ({@code bridge_reasoning: false}) a translated
 * request carries none of its protocol's reasoning fields, whatever thinking the client asked for; the rest
 * of the request is translated as it would be otherwise.
 */
class ReasoningLeftOutTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0} → {1}: {3}")
    @CsvSource(delimiter = '|', value = {
            "MESSAGES|CHAT_COMPLETIONS|{\"max_tokens\":2048,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}|reasoning_effort",
            "RESPONSES|CHAT_COMPLETIONS|{\"reasoning\":{\"effort\":\"high\"},\"input\":\"hi\"}|reasoning_effort",
            "CHAT_COMPLETIONS|RESPONSES|{\"reasoning_effort\":\"low\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}|reasoning",
            "MESSAGES|RESPONSES|{\"max_tokens\":2048,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}|include",
            "CHAT_COMPLETIONS|MESSAGES|{\"reasoning_effort\":\"medium\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}|thinking",
            "RESPONSES|MESSAGES|{\"reasoning\":{\"effort\":\"medium\"},\"input\":\"hi\"}|thinking"})
    void anAccountThatTakesNoReasoningParametersGetsNone(EndpointFamily client, EndpointFamily upstream, String body,
            String field) throws Exception {
        JsonNode request = JSON.readTree(body);
        JsonNode asked = Bridge.translate(client, upstream, request, "m", true).body();
        JsonNode without = Bridge.translate(client, upstream, request, "m", false).body();

        assertTrue(asked.has(field), asked.toString());
        assertFalse(without.has(field), without.toString());
        assertFalse(without.has("reasoning_effort") || without.has("reasoning") || without.has("thinking"),
                without.toString());
        assertEquals(asked.path(upstream == EndpointFamily.RESPONSES ? "input" : "messages"),
                without.path(upstream == EndpointFamily.RESPONSES ? "input" : "messages"));
    }
}
