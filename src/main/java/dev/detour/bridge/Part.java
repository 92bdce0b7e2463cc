package dev.detour.bridge;

import dev.detour.core.account.EndpointFamily;
import java.util.List;

/**
 * B-2: one piece of a turn or an answer in the neutral model the three protocols are read into and
 * written from (see {@link Conversation}). Every part is something at least two protocols can carry.
 */
public sealed interface Part {
    record Text(String text) implements Part {
    }

    /**
     * An image by {@code data} (base64, with its media type) or by {@code url}: exactly one of the two.
     * {@code detail} is OpenAI's resolution hint (low, high, auto); Anthropic has none, null when not given.
     */
    record Image(String mediaType, String data, String url, String detail) implements Part {
        static Image of(String urlOrDataUrl, String detail) {
            DataUrl parsed = DataUrl.parse(urlOrDataUrl);
            return parsed == null ? new Image(null, null, urlOrDataUrl, detail)
                    : new Image(parsed.mediaType(), parsed.data(), null, detail);
        }

        /** The form OpenAI takes for both kinds: the URL, or a {@code data:} URL around the base64. */
        String asUrl() {
            return url != null ? url : DataUrl.format(mediaType, data);
        }
    }

    /** A call of a client-defined function; {@code id} pairs it with its {@link ToolResult}. */
    record ToolCall(String id, String name, String arguments) implements Part {
    }

    /** What the client's function returned: text and images, in order. */
    record ToolResult(String callId, List<Part> content, boolean isError) implements Part {
    }

    /**
     * Reasoning the model showed. {@code seal} is what lets it go back to the protocol that produced it
     * (null: nothing can verify it, so it is shown but never sent back).
     */
    record Thinking(String text, Seal seal) implements Part {
    }

    /**
     * The opaque proof a protocol needs to accept reasoning back: Anthropic's {@code signature} (or the
     * {@code data} of a {@code redacted_thinking} block), or a Responses reasoning item's id and
     * {@code encrypted_content}. Only the {@code origin} protocol can use it; {@link BridgedReasoning}
     * carries it through the other protocols' fields.
     */
    record Seal(EndpointFamily origin, String value, boolean redacted) {
    }

    /** The model declined; OpenAI says so in a field of its own, Anthropic with stop reason {@code refusal}. */
    record Refusal(String text) implements Part {
    }
}
