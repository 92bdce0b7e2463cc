package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;

/**
 * B-4: a protocol's {@code usage} object read into {@link TokenUsage} and written back in any protocol.
 * OpenAI (Chat Completions, Responses) counts cached tokens inside the prompt count and reasoning inside
 * the output count; Anthropic Messages counts cache reads and writes apart from {@code input_tokens}.
 */
public final class UsageJson {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private UsageJson() {
    }

    /** The usage object of an answer or frame in {@code protocol}; NONE when it is missing or not an object. */
    public static TokenUsage read(EndpointFamily protocol, JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return TokenUsage.NONE;
        }
        return switch (protocol) {
            case MESSAGES -> readMessages(usage);
            case RESPONSES -> readOpenAi(usage, "input_tokens", "input_tokens_details", "output_tokens",
                    "output_tokens_details");
            default -> readOpenAi(usage, "prompt_tokens", "prompt_tokens_details", "completion_tokens",
                    "completion_tokens_details");
        };
    }

    /** The usage object {@code protocol}'s clients expect for these counts. */
    public static ObjectNode write(EndpointFamily protocol, TokenUsage usage) {
        ObjectNode out = JSON.objectNode();
        switch (protocol) {
            case MESSAGES -> {
                out.put("input_tokens", usage.input());
                out.put("cache_creation_input_tokens", usage.cacheWrite());
                out.put("cache_read_input_tokens", usage.cacheRead());
                ObjectNode creation = out.putObject("cache_creation");
                creation.put("ephemeral_5m_input_tokens", usage.cacheWrite5m());
                creation.put("ephemeral_1h_input_tokens", usage.cacheWrite1h());
                out.put("output_tokens", usage.output());
            }
            case RESPONSES -> {
                out.put("input_tokens", usage.promptTotal());
                out.putObject("input_tokens_details").put("cached_tokens", usage.cacheRead());
                out.put("output_tokens", usage.output());
                out.putObject("output_tokens_details").put("reasoning_tokens", usage.reasoning());
                out.put("total_tokens", usage.promptTotal() + usage.output());
            }
            default -> {
                out.put("prompt_tokens", usage.promptTotal());
                out.put("completion_tokens", usage.output());
                out.put("total_tokens", usage.promptTotal() + usage.output());
                out.putObject("prompt_tokens_details").put("cached_tokens", usage.cacheRead());
                out.putObject("completion_tokens_details").put("reasoning_tokens", usage.reasoning());
            }
        }
        return out;
    }

    private static TokenUsage readMessages(JsonNode usage) {
        long cacheWrite = count(usage, "cache_creation_input_tokens");
        JsonNode creation = usage.path("cache_creation");
        long write5m = cacheWrite;
        long write1h = 0;
        if (creation.isObject()) { // the split by lifetime, when the upstream gives it
            write5m = count(creation, "ephemeral_5m_input_tokens");
            write1h = count(creation, "ephemeral_1h_input_tokens");
        }
        return new TokenUsage(count(usage, "input_tokens"), count(usage, "output_tokens"),
                count(usage, "cache_read_input_tokens"), write5m, write1h, 0);
    }

    private static TokenUsage readOpenAi(JsonNode usage, String promptField, String promptDetails,
            String outputField, String outputDetails) {
        long cached = count(usage.path(promptDetails), "cached_tokens");
        long prompt = count(usage, promptField);
        return new TokenUsage(Math.max(0, prompt - cached), count(usage, outputField), cached, 0, 0,
                count(usage.path(outputDetails), "reasoning_tokens"));
    }

    private static long count(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.canConvertToLong() && value.asLong() > 0 ? value.asLong() : 0;
    }
}
