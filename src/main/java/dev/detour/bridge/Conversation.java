package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * B-2: a client request in neutral form. Each protocol has one codec that reads its request into this
 * and writes this into its request, so six directions are three codecs and a fact about one protocol
 * lives in one class. It holds what at least two protocols share; a feature only one protocol has is
 * refused by the reader ({@link BridgeRefusal}), one the target cannot carry by the writer.
 *
 * <p>Nullable fields mean "the client did not say"; the writer then leaves the upstream's default,
 * except where the upstream requires a value (Messages' {@code max_tokens}).
 *
 * @param system     system and developer instructions, in order (Messages has one system prompt, so
 *                   a system message in the middle of a Chat history moves to the front)
 * @param turns      the history: tool results are parts of a user turn, as in Messages
 * @param stop       stop sequences, empty when none
 * @param metadata   string tags; {@code user} is the end-user id (Messages: {@code metadata.user_id})
 */
public record Conversation(List<String> system, List<Turn> turns, List<ToolSpec> tools, ToolChoice toolChoice,
        Boolean parallelToolCalls, Integer maxTokens, Double temperature, Double topP, Integer topK,
        List<String> stop, boolean stream, Reasoning reasoning, ResponseFormat responseFormat, String user,
        Map<String, String> metadata) {

    /**
     * The same conversation with no reasoning asked for: B-6, an account whose relay refuses reasoning
     * parameters ({@code bridge_reasoning: false}) gets none, whatever the client asked.
     */
    Conversation withoutReasoning() {
        return new Conversation(system, turns, tools, toolChoice, parallelToolCalls, maxTokens, temperature, topP,
                topK, stop, stream, null, responseFormat, user, metadata);
    }

    public enum Role { USER, ASSISTANT }

    public record Turn(Role role, List<Part> parts) {
    }

    /** A client-defined function; {@code schema} is its JSON Schema for the arguments. */
    public record ToolSpec(String name, String description, JsonNode schema, Boolean strict) {
    }

    /** AUTO, NONE, ANY (must call one) or TOOL (must call {@code name}). */
    public record ToolChoice(Mode mode, String name) {
        public enum Mode { AUTO, NONE, ANY, TOOL }
    }

    /**
     * How hard the model should think: OpenAI speaks in {@code effort} levels, Anthropic in a token
     * {@code budget}; whichever the client gave is kept and the other derived by {@link ReasoningLevels}.
     * {@code off} is an explicit "no thinking" (Anthropic {@code disabled}, OpenAI effort {@code none}).
     */
    public record Reasoning(String effort, Integer budget, boolean off) {
    }

    /** Structured output: {@code type} text, json_object or json_schema (with name, schema, strict). */
    public record ResponseFormat(String type, String name, JsonNode schema, Boolean strict) {
    }
}
