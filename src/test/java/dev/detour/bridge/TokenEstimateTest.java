package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** B-5: the local count_tokens estimate, against counts Anthropic published and per part of a request. */
class TokenEstimateTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The error bound docs/api.md states for these fixtures; an estimate, not a promise for other requests. */
    static final double BOUND = 0.10;

    private static JsonNode fixture(String name) throws IOException {
        try (InputStream in = TokenEstimateTest.class.getResourceAsStream("/count_tokens/" + name + ".json")) {
            return JSON.readTree(in);
        }
    }

    private static int estimate(String body) throws IOException {
        return TokenEstimate.inputTokens(JSON.readTree(body));
    }

    @ParameterizedTest
    @ValueSource(strings = {"basic", "tools", "image"})
    void theEstimateIsWithinItsStatedBoundOfAnthropicsPublishedCounts(String name) throws IOException {
        JsonNode f = fixture(name);
        int known = f.path("known_input_tokens").asInt();
        int estimate = TokenEstimate.inputTokens(f.path("request"));
        double error = Math.abs(estimate - known) / (double) known;
        System.out.printf("count_tokens estimate %s: known %d, estimate %d, error %.1f%%%n", name, known, estimate,
                error * 100);
        assertTrue(error <= BOUND, name + ": known " + known + ", estimated " + estimate);
    }

    @Test
    void toolCallsAndToolResultsCountTheirTextAndEarlierThinkingDoesNot() throws IOException {
        String plain = "{\"messages\":[{\"role\":\"user\",\"content\":\"What is the weather in Paris?\"}]}";
        String withCall = "{\"messages\":[{\"role\":\"user\",\"content\":\"What is the weather in Paris?\"},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"" + "long thought ".repeat(200)
                + "\",\"signature\":\"sig\"},{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"get_weather\","
                + "\"input\":{\"location\":\"Paris\"}}]},{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
                + "\"tool_use_id\":\"toolu_1\",\"content\":[{\"type\":\"text\",\"text\":\"18 degrees and sunny\"}]}]}]}";
        int added = estimate(withCall) - estimate(plain);
        assertTrue(added > 10 && added < 40, "a call and its result, not 400 tokens of old thinking: " + added);
    }

    @Test
    void anImageCostsItsFlatAmountWhereverItIs() throws IOException {
        String text = "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"look\"}]}]}";
        String image = "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"look\"},"
                + "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"https://example.com/a.png\"}}]}]}";
        String inResult = "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"look\"},"
                + "{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"content\":[{\"type\":\"image\",\"source\":{}}]}]}]}";
        assertEquals(TokenEstimate.IMAGE, estimate(image) - estimate(text));
        assertEquals(TokenEstimate.IMAGE, estimate(inResult) - estimate(text));
    }

    @Test
    void textCountsWordsDigitsPunctuationAndEachCjkCharacter() {
        assertEquals(0, TokenEstimate.text(" \n\t "));
        assertEquals(3, TokenEstimate.text("Hello, Claude"));
        assertEquals(2, TokenEstimate.text("internationalization".substring(0, 14))); // 14 letters, 7 a token
        assertEquals(2, TokenEstimate.text("2026"));
        assertEquals(4, TokenEstimate.text("你好世界"));
        assertTrue(TokenEstimate.text("{\"type\": \"object\"}") <= 6);
    }
}
