package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;
import org.junit.jupiter.api.Test;

class UsageJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static TokenUsage read(EndpointFamily protocol, String json) throws Exception {
        return UsageJson.read(protocol, JSON.readTree(json));
    }

    @Test
    void chatPromptIncludesItsCachedTokensAndOutputItsReasoning() throws Exception {
        TokenUsage usage = read(EndpointFamily.CHAT_COMPLETIONS, """
                {"prompt_tokens":1200,"completion_tokens":300,"total_tokens":1500,
                 "prompt_tokens_details":{"cached_tokens":1000},"completion_tokens_details":{"reasoning_tokens":120}}""");
        assertEquals(new TokenUsage(200, 300, 1000, 0, 0, 120), usage);
    }

    @Test
    void responsesUsageReadsLikeChatWithItsOwnFieldNames() throws Exception {
        TokenUsage usage = read(EndpointFamily.RESPONSES, """
                {"input_tokens":36,"input_tokens_details":{"cached_tokens":6},"output_tokens":87,
                 "output_tokens_details":{"reasoning_tokens":40},"total_tokens":123}""");
        assertEquals(new TokenUsage(30, 87, 6, 0, 0, 40), usage);
    }

    @Test
    void messagesCountsCacheApartAndSplitsWritesByLifetime() throws Exception {
        TokenUsage usage = read(EndpointFamily.MESSAGES, """
                {"input_tokens":50,"cache_creation_input_tokens":300,"cache_read_input_tokens":2000,
                 "cache_creation":{"ephemeral_5m_input_tokens":100,"ephemeral_1h_input_tokens":200},"output_tokens":70}""");
        assertEquals(new TokenUsage(50, 70, 2000, 100, 200, 0), usage);
    }

    @Test
    void messagesCacheWritesWithoutTheirSplitCountAsFiveMinuteWrites() throws Exception {
        TokenUsage usage = read(EndpointFamily.MESSAGES, """
                {"input_tokens":5,"cache_creation_input_tokens":40,"output_tokens":1}""");
        assertEquals(new TokenUsage(5, 1, 0, 40, 0, 0), usage);
    }

    @Test
    void missingOrBrokenUsageReadsAsNone() throws Exception {
        assertEquals(TokenUsage.NONE, UsageJson.read(EndpointFamily.MESSAGES, null));
        assertEquals(TokenUsage.NONE, read(EndpointFamily.CHAT_COMPLETIONS, "\"usage\""));
        assertEquals(TokenUsage.NONE, read(EndpointFamily.RESPONSES, "{\"input_tokens\":-4}"));
    }

    @Test
    void everyProtocolReadsBackWhatItWrites() {
        TokenUsage anthropic = new TokenUsage(50, 70, 2000, 100, 200, 0);
        assertEquals(anthropic, UsageJson.read(EndpointFamily.MESSAGES, UsageJson.write(EndpointFamily.MESSAGES, anthropic)));
        // OpenAI has no cache-write counts: they stay inside the prompt total, as uncached input
        TokenUsage openAi = new TokenUsage(350, 70, 2000, 0, 0, 0);
        assertEquals(openAi, UsageJson.read(EndpointFamily.CHAT_COMPLETIONS,
                UsageJson.write(EndpointFamily.CHAT_COMPLETIONS, anthropic)));
        assertEquals(openAi, UsageJson.read(EndpointFamily.RESPONSES, UsageJson.write(EndpointFamily.RESPONSES, anthropic)));
    }

    @Test
    void openAiTotalsAddPromptAndOutput() {
        var written = UsageJson.write(EndpointFamily.CHAT_COMPLETIONS, new TokenUsage(10, 5, 20, 0, 0, 2));
        assertEquals(30, written.get("prompt_tokens").asLong());
        assertEquals(35, written.get("total_tokens").asLong());
        assertEquals(2, written.path("completion_tokens_details").get("reasoning_tokens").asLong());
    }
}
