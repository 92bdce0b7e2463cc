package dev.detour.fake;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.util.ArrayList;
import java.util.List;

/** Ready-made upstream bodies in the shapes real providers send (OpenAI and Anthropic). */
public final class Bodies {
    public static final String DEFAULT_MODEL = "gpt-4o-mini";
    public static final String DEFAULT_TEXT = "Hello from FakeUpstream";

    private Bodies() {
    }

    public static String chatCompletion(String model, String text) {
        return "{\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion\",\"created\":1700000000,\"model\":"
                + quote(model) + ",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":"
                + quote(text) + "},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":"
                + tokens(text) + ",\"total_tokens\":" + (12 + tokens(text)) + "}}";
    }

    public static String chatCompletion() {
        return chatCompletion(DEFAULT_MODEL, DEFAULT_TEXT);
    }

    public static String anthropicMessage(String model, String text) {
        return "{\"id\":\"msg_fake\",\"type\":\"message\",\"role\":\"assistant\",\"model\":" + quote(model)
                + ",\"content\":[{\"type\":\"text\",\"text\":" + quote(text) + "}],\"stop_reason\":\"end_turn\","
                + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":12,\"output_tokens\":" + tokens(text) + "}}";
    }

    /** The first frame of an OpenAI stream: the assistant role, no content yet. */
    public static String chatRoleChunk() {
        return chunk("{\"role\":\"assistant\",\"content\":\"\"}", "null");
    }

    public static String chatChunk(String text) {
        return chunk("{\"content\":" + quote(text) + "}", "null");
    }

    /** The last data frame before [DONE]: finish_reason stop (a terminal marker, F-4). */
    public static String chatStopChunk() {
        return chunk("{}", "\"stop\"");
    }

    /** Role chunk, one delta per text, stop chunk: the data frames of a whole stream (no [DONE]). */
    public static List<String> chatStream(String... texts) {
        List<String> frames = new ArrayList<>(texts.length + 2);
        frames.add(chatRoleChunk());
        for (String text : texts) {
            frames.add(chatChunk(text));
        }
        frames.add(chatStopChunk());
        return frames;
    }

    public static String openAiError(int status, String message, String code) {
        return "{\"error\":{\"message\":" + quote(message) + ",\"type\":" + quote(openAiType(status))
                + ",\"param\":null,\"code\":" + (code == null ? "null" : quote(code)) + "}}";
    }

    public static String anthropicError(String type, String message) {
        return "{\"type\":\"error\",\"error\":{\"type\":" + quote(type) + ",\"message\":" + quote(message) + "}}";
    }

    private static String chunk(String delta, String finishReason) {
        return "{\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":"
                + quote(DEFAULT_MODEL) + ",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
                + finishReason + "}]}";
    }

    private static String openAiType(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 429 -> "rate_limit_error";
            default -> status >= 500 ? "server_error" : "invalid_request_error";
        };
    }

    private static int tokens(String text) {
        return Math.max(1, text.split("\\s+").length);
    }

    /** A JSON string literal. */
    public static String quote(String s) {
        return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + '"';
    }
}
