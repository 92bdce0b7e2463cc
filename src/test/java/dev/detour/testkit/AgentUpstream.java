package dev.detour.testkit;

import static dev.detour.fake.Bodies.quote;

import dev.detour.fake.Bodies;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What a scripted upstream answers to the real agents (Claude Code, Codex CLI) and the official SDKs:
 * Anthropic Messages (stream as named events, and plain), {@code count_tokens}, OpenAI Responses streams
 * (the events Codex reads), Chat Completions, the models list, and both providers' error bodies. Use
 * {@link #answering(String)} as a {@link FakeUpstream#handler} so any call an agent makes gets a sensible
 * answer; the fake records each one, so a test can see what the agent called.
 */
public final class AgentUpstream {
    private AgentUpstream() {
    }

    /** One named SSE event frame ({@link Reply#sseEvents}). */
    public static String event(String name, String json) {
        return "event: " + name + "\ndata: " + json;
    }

    /** A whole Anthropic Messages stream of {@code words} as separate text deltas, ending with message_stop. */
    public static List<String> messagesText(String model, String... words) {
        List<String> frames = new ArrayList<>(messagesTextUntilCut(model, words));
        frames.add(event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}"));
        frames.add(messageDelta("end_turn", words.length));
        frames.add(event("message_stop", "{\"type\":\"message_stop\"}"));
        return frames;
    }

    /** message_start, the text block and its deltas: the part of a stream a cut leaves (no stop, no usage). */
    public static List<String> messagesTextUntilCut(String model, String... words) {
        List<String> frames = new ArrayList<>();
        frames.add(messageStart(model));
        frames.add(event("content_block_start",
                "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"));
        for (String word : words) {
            frames.add(event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                    + "{\"type\":\"text_delta\",\"text\":" + quote(word) + "}}"));
        }
        return frames;
    }

    /** A stream whose one block is a tool_use call (stop_reason tool_use), its input sent as one JSON delta. */
    public static List<String> messagesToolUse(String model, String toolUseId, String tool, String inputJson) {
        return List.of(messageStart(model),
                event("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
                        + "{\"type\":\"tool_use\",\"id\":" + quote(toolUseId) + ",\"name\":" + quote(tool)
                        + ",\"input\":{}}}"),
                event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
                        + "{\"type\":\"input_json_delta\",\"partial_json\":" + quote(inputJson) + "}}"),
                event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}"),
                messageDelta("tool_use", 9),
                event("message_stop", "{\"type\":\"message_stop\"}"));
    }

    /** Anthropic's in-band stream error ({@code event: error}), e.g. {@code overloaded_error}. */
    public static String messagesErrorEvent(String type, String message) {
        return event("error", Bodies.anthropicError(type, message));
    }

    /** An Anthropic error answer: {@code {"type":"error","error":{…}}}. */
    public static Reply anthropicError(int status, String type, String message) {
        return Reply.json(status, Bodies.anthropicError(type, message));
    }

    public static Reply anthropicRateLimited(int retryAfterSeconds) {
        return anthropicError(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit")
                .header("Retry-After", String.valueOf(retryAfterSeconds));
    }

    public static Reply anthropicOverloaded() {
        return anthropicError(529, "overloaded_error", "Overloaded");
    }

    /** An OpenAI rate-limit answer with Retry-After. */
    public static Reply openAiRateLimited(int retryAfterSeconds) {
        return Reply.openAiError(429, "Rate limit reached for requests", "rate_limit_exceeded")
                .header("Retry-After", String.valueOf(retryAfterSeconds));
    }

    /** A whole Responses stream of {@code words} as output_text deltas, ending with response.completed. */
    public static List<String> responsesText(String... words) {
        List<String> frames = new ArrayList<>(responsesTextUntilCut(words));
        String text = String.join("", words);
        String item = "{\"id\":\"msg_fake\",\"type\":\"message\",\"role\":\"assistant\",\"status\":\"completed\","
                + "\"content\":[{\"type\":\"output_text\",\"text\":" + quote(text) + ",\"annotations\":[]}]}";
        frames.add(event("response.output_text.done", "{\"type\":\"response.output_text.done\",\"item_id\":\"msg_fake\","
                + "\"output_index\":0,\"content_index\":0,\"text\":" + quote(text) + "}"));
        frames.add(event("response.output_item.done",
                "{\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":" + item + "}"));
        frames.add(responseCompleted("[" + item + "]", words.length));
        return frames;
    }

    /** response.created, the message item and its deltas: what a cut Responses stream leaves. */
    public static List<String> responsesTextUntilCut(String... words) {
        List<String> frames = new ArrayList<>();
        frames.add(responseCreated());
        frames.add(event("response.output_item.added", "{\"type\":\"response.output_item.added\",\"output_index\":0,"
                + "\"item\":{\"id\":\"msg_fake\",\"type\":\"message\",\"role\":\"assistant\",\"status\":\"in_progress\","
                + "\"content\":[]}}"));
        frames.add(event("response.content_part.added", "{\"type\":\"response.content_part.added\",\"item_id\":"
                + "\"msg_fake\",\"output_index\":0,\"content_index\":0,\"part\":{\"type\":\"output_text\",\"text\":\"\","
                + "\"annotations\":[]}}"));
        for (String word : words) {
            frames.add(event("response.output_text.delta", "{\"type\":\"response.output_text.delta\",\"item_id\":"
                    + "\"msg_fake\",\"output_index\":0,\"content_index\":0,\"delta\":" + quote(word) + "}"));
        }
        return frames;
    }

    /** A Responses stream whose one output is a custom (free-form) tool call, e.g. Codex's {@code exec}. */
    public static List<String> responsesCustomToolCall(String callId, String tool, String input) {
        String item = "{\"id\":\"ctc_fake\",\"type\":\"custom_tool_call\",\"status\":\"completed\",\"call_id\":"
                + quote(callId) + ",\"name\":" + quote(tool) + ",\"input\":" + quote(input) + "}";
        return List.of(responseCreated(),
                event("response.output_item.added", "{\"type\":\"response.output_item.added\",\"output_index\":0,"
                        + "\"item\":" + item + "}"),
                event("response.output_item.done", "{\"type\":\"response.output_item.done\",\"output_index\":0,"
                        + "\"item\":" + item + "}"),
                responseCompleted("[" + item + "]", 9));
    }

    /**
     * Answers every call an agent or SDK makes with {@code text}: Messages (stream or not), count_tokens,
     * Responses, Chat Completions, the models list; anything else 404 in the OpenAI shape.
     */
    public static Function<RecordedRequest, Reply> answering(String text) {
        String[] words = words(text);
        return request -> {
            String path = request.path();
            String model = request.model() == null ? "fake-model" : request.model();
            if (path.startsWith("/v1/messages/count_tokens")) {
                return Reply.json(200, "{\"input_tokens\":42}");
            }
            if (path.startsWith("/v1/messages")) {
                return request.wantsStream() ? Reply.sseEvents(messagesText(model, words))
                        : Reply.json(200, Bodies.anthropicMessage(model, text));
            }
            if (path.startsWith("/v1/responses")) {
                return Reply.sseEvents(responsesText(words));
            }
            if (path.startsWith("/v1/chat/completions")) {
                return request.wantsStream() ? Reply.sse(Bodies.chatStream(words))
                        : Reply.json(200, Bodies.chatCompletion(model, text));
            }
            if (path.startsWith("/v1/models")) {
                return Reply.json(200, "{\"object\":\"list\",\"data\":[]}");
            }
            return Reply.openAiError(404, "FakeUpstream has no " + request.method() + " " + path, "not_found");
        };
    }

    /** The text split into words that keep their trailing space, so the deltas join back to the text. */
    public static String[] words(String text) {
        return text.split("(?<= )");
    }

    private static String messageStart(String model) {
        return event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_fake\",\"type\":\"message\","
                + "\"role\":\"assistant\",\"model\":" + quote(model) + ",\"content\":[],\"stop_reason\":null,"
                + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":12,\"output_tokens\":1}}}");
    }

    private static String messageDelta(String stopReason, int outputTokens) {
        return event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":" + quote(stopReason)
                + ",\"stop_sequence\":null},\"usage\":{\"output_tokens\":" + outputTokens + "}}");
    }

    private static String responseCreated() {
        return event("response.created", "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_fake\","
                + "\"object\":\"response\",\"status\":\"in_progress\",\"output\":[]}}");
    }

    private static String responseCompleted(String outputJson, int outputTokens) {
        return event("response.completed", "{\"type\":\"response.completed\",\"response\":{\"id\":\"resp_fake\","
                + "\"object\":\"response\",\"status\":\"completed\",\"output\":" + outputJson + ",\"usage\":"
                + "{\"input_tokens\":12,\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":" + outputTokens
                + ",\"output_tokens_details\":{\"reasoning_tokens\":0},\"total_tokens\":" + (12 + outputTokens) + "}}}");
    }
}
