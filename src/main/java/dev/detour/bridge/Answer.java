package dev.detour.bridge;

import dev.detour.core.usage.TokenUsage;
import java.util.List;

/**
 * B-2: a buffered (non-stream) answer in neutral form, read from the upstream's protocol and written in
 * the client's, the same three-codec shape as {@link Conversation}.
 *
 * @param id           the upstream's id; the writer derives a client-shaped id from it ({@link AnswerIds})
 * @param parts        text, tool calls, thinking and refusals, in the order the model produced them
 * @param stopSequence the stop sequence that ended it, when the upstream says which
 */
public record Answer(String id, String model, List<Part> parts, StopReason stop, String stopSequence,
        TokenUsage usage) {

    boolean refused() {
        return parts.stream().anyMatch(p -> p instanceof Part.Refusal);
    }
}
