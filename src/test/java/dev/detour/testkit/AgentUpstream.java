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
        String item = responsesMessageItem(text);
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
                return request.wantsStream() ? Reply.sseEvents(responsesText(words))
                        : Reply.json(200, responsesBody(model, "[" + responsesMessageItem(text) + "]", words.length));
            }
            if (path.startsWith("/v1/chat/completions")) {
                return request.wantsStream() ? Reply.sse(chatStream(request, words))
                        : Reply.json(200, Bodies.chatCompletion(model, text));
            }
            if (path.startsWith("/v1/models")) {
                return Reply.json(200, "{\"object\":\"list\",\"data\":[]}");
            }
            return Reply.openAiError(404, "FakeUpstream has no " + request.method() + " " + path, "not_found");
        };
    }

    /**
     * As {@link #answering(String)}, but a request that offers tools and carries no tool result yet is answered
     * with one call of {@code tool} (id {@code callId}, arguments {@code argumentsJson}) in the protocol of the
     * path it came to, streamed or not as asked: Messages {@code tool_use}, a Chat {@code tool_calls} entry, a
     * Responses {@code function_call}. Once the result is back (tool_result, a {@code tool} message,
     * function_call_output), the text.
     */
    public static Function<RecordedRequest, Reply> callingTool(String text, String callId, String tool,
            String argumentsJson) {
        Function<RecordedRequest, Reply> plain = answering(text);
        return request -> {
            String body = request.body();
            String path = request.path();
            String model = request.model() == null ? "fake-model" : request.model();
            boolean stream = request.wantsStream();
            if (!body.contains("\"tools\"")) {
                return plain.apply(request);
            }
            if (path.equals("/v1/messages") && !body.contains("\"tool_result\"")) {
                return stream ? Reply.sseEvents(messagesToolUse(model, callId, tool, argumentsJson))
                        : Reply.json(200, messagesToolUseBody(model, callId, tool, argumentsJson));
            }
            if (path.equals("/v1/chat/completions") && !body.contains("\"role\":\"tool\"")) {
                return stream ? Reply.sse(chatToolCall(request, callId, tool, argumentsJson))
                        : Reply.json(200, chatToolCallBody(model, callId, tool, argumentsJson));
            }
            if (path.equals("/v1/responses") && !body.contains("\"function_call_output\"")) {
                return stream ? Reply.sseEvents(responsesFunctionCall(callId, tool, argumentsJson))
                        : Reply.json(200, responsesBody(model, "[" + functionCallItem(callId, tool, argumentsJson,
                                "completed") + "]", 9));
            }
            return plain.apply(request);
        };
    }

    /** A Chat stream chunk of choice 0: {@code deltaJson} and a finish_reason given as JSON ({@code null}, {@code "stop"}). */
    public static String chatChunk(String deltaJson, String finishReasonJson) {
        return "{\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
                + "\"model\":\"fake\",\"choices\":[{\"index\":0,\"delta\":" + deltaJson + ",\"finish_reason\":"
                + finishReasonJson + "}]}";
    }

    /**
     * A streamed Chat tool call as OpenAI sends one: the id and name first, the arguments in the next chunk,
     * finish_reason tool_calls (no [DONE] added here: {@link Reply#sse} adds it), and the usage chunk when asked.
     */
    public static List<String> chatToolCall(RecordedRequest request, String callId, String tool, String argumentsJson) {
        List<String> frames = new ArrayList<>(List.of(Bodies.chatRoleChunk(),
                chatChunk("{\"tool_calls\":[{\"index\":0,\"id\":" + quote(callId) + ",\"type\":\"function\","
                        + "\"function\":{\"name\":" + quote(tool) + ",\"arguments\":\"\"}}]}", "null"),
                chatChunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":" + quote(argumentsJson)
                        + "}}]}", "null"),
                chatChunk("{}", "\"tool_calls\"")));
        if (request.body().contains("\"include_usage\":true")) {
            frames.add(chatUsageChunk(9));
        }
        return frames;
    }

    private static String chatToolCallBody(String model, String callId, String tool, String argumentsJson) {
        return "{\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion\",\"created\":1700000000,\"model\":"
                + quote(model) + ",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,"
                + "\"tool_calls\":[{\"id\":" + quote(callId) + ",\"type\":\"function\",\"function\":{\"name\":"
                + quote(tool) + ",\"arguments\":" + quote(argumentsJson) + "}}]},\"finish_reason\":\"tool_calls\"}],"
                + "\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":9,\"total_tokens\":21}}";
    }

    /** A Chat text stream; with the usage chunk (empty choices) last when the request asked for include_usage. */
    private static List<String> chatStream(RecordedRequest request, String... words) {
        List<String> frames = new ArrayList<>(Bodies.chatStream(words));
        if (request.body().contains("\"include_usage\":true")) {
            frames.add(chatUsageChunk(words.length));
        }
        return frames;
    }

    private static String chatUsageChunk(int outputTokens) {
        return "{\"id\":\"chatcmpl-fake\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
                + "\"model\":\"fake\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":"
                + outputTokens + ",\"total_tokens\":" + (12 + outputTokens) + "}}";
    }

    /** A whole (not streamed) Messages answer whose one block is a tool_use call. */
    private static String messagesToolUseBody(String model, String toolUseId, String tool, String inputJson) {
        return "{\"id\":\"msg_fake\",\"type\":\"message\",\"role\":\"assistant\",\"model\":" + quote(model)
                + ",\"content\":[{\"type\":\"tool_use\",\"id\":" + quote(toolUseId) + ",\"name\":" + quote(tool)
                + ",\"input\":" + inputJson + "}],\"stop_reason\":\"tool_use\",\"stop_sequence\":null,"
                + "\"usage\":{\"input_tokens\":12,\"output_tokens\":9}}";
    }

    /** A Responses stream whose one output is a function call, its arguments in one delta. */
    public static List<String> responsesFunctionCall(String callId, String tool, String argumentsJson) {
        String done = functionCallItem(callId, tool, argumentsJson, "completed");
        return List.of(responseCreated(),
                event("response.output_item.added", "{\"type\":\"response.output_item.added\",\"output_index\":0,"
                        + "\"item\":" + functionCallItem(callId, tool, "", "in_progress") + "}"),
                event("response.function_call_arguments.delta", "{\"type\":\"response.function_call_arguments.delta\","
                        + "\"item_id\":\"fc_fake\",\"output_index\":0,\"delta\":" + quote(argumentsJson) + "}"),
                event("response.function_call_arguments.done", "{\"type\":\"response.function_call_arguments.done\","
                        + "\"item_id\":\"fc_fake\",\"output_index\":0,\"arguments\":" + quote(argumentsJson) + "}"),
                event("response.output_item.done", "{\"type\":\"response.output_item.done\",\"output_index\":0,"
                        + "\"item\":" + done + "}"),
                responseCompleted("[" + done + "]", 9));
    }

    private static String functionCallItem(String callId, String tool, String argumentsJson, String status) {
        return "{\"id\":\"fc_fake\",\"type\":\"function_call\",\"status\":" + quote(status) + ",\"call_id\":"
                + quote(callId) + ",\"name\":" + quote(tool) + ",\"arguments\":" + quote(argumentsJson) + "}";
    }

    private static String responsesMessageItem(String text) {
        return "{\"id\":\"msg_fake\",\"type\":\"message\",\"role\":\"assistant\",\"status\":\"completed\","
                + "\"content\":[{\"type\":\"output_text\",\"text\":" + quote(text) + ",\"annotations\":[]}]}";
    }

    /** A whole (not streamed) Responses answer. */
    private static String responsesBody(String model, String outputJson, int outputTokens) {
        return "{\"id\":\"resp_fake\",\"object\":\"response\",\"created_at\":1700000000,\"status\":\"completed\","
                + "\"model\":" + quote(model) + ",\"output\":" + outputJson + ",\"usage\":" + responsesUsage(outputTokens)
                + "}";
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
                + responsesUsage(outputTokens) + "}}");
    }

    private static String responsesUsage(int outputTokens) {
        return "{\"input_tokens\":12,\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":" + outputTokens
                + ",\"output_tokens_details\":{\"reasoning_tokens\":0},\"total_tokens\":" + (12 + outputTokens) + "}";
    }
}
