package dev.detour.bridge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;

/**
 * B-2: a Chat Completions client's stream: {@code data: {chunk}} frames, one choice (index 0), then
 * {@code data: [DONE]}. Thinking goes out as {@code delta.reasoning_content} (the field the Chat relays that
 * stream reasoning use; raw chunks carry every piece, though openai-node's stream helper keeps only the
 * last piece of a field it does not know); Chat has no place for a thinking proof (nor for a redacted
 * block, which has no text), and a Chat client never sends reasoning back. Usage comes in a last chunk with
 * empty choices when the client asked for it with {@code stream_options.include_usage}, as OpenAI does —
 * unless the upstream sent none: unknown is not zero. An upstream error becomes a
 * {@code data: {"error":{…}}} frame, which the OpenAI SDK raises as an APIError; no [DONE] follows it.
 */
final class ChatStreamWriter extends StreamWriter {
    private final boolean includeUsage;
    private String id = "";
    private String model = "";
    private int toolCalls = -1;

    ChatStreamWriter(EndpointFamily upstream, long createdAt, boolean includeUsage) {
        super(upstream, createdAt);
        this.includeUsage = includeUsage;
    }

    @Override
    protected void onStart(String upstreamId, String upstreamModel) {
        id = AnswerIds.forClient(EndpointFamily.CHAT_COMPLETIONS, upstreamId);
        model = upstreamModel;
        ObjectNode delta = JSON.createObjectNode().put("role", "assistant").put("content", "");
        chunk(delta, null);
    }

    @Override
    protected void onBlockStart(Kind kind, String callId, String name) {
        if (kind != Kind.TOOL_CALL) {
            return; // text, reasoning and refusals need no opening frame in Chat
        }
        toolCalls++;
        ObjectNode call = JSON.createObjectNode().put("index", toolCalls).put("id", callId).put("type", "function");
        call.putObject("function").put("name", name).put("arguments", "");
        ObjectNode delta = JSON.createObjectNode();
        delta.putArray("tool_calls").add(call);
        chunk(delta, null);
    }

    @Override
    protected void onDelta(Kind kind, String text) {
        ObjectNode delta = JSON.createObjectNode();
        switch (kind) {
            case TEXT -> delta.put("content", text);
            case THINKING -> delta.put("reasoning_content", text);
            case REFUSAL -> delta.put("refusal", text);
            case TOOL_CALL -> {
                ObjectNode call = delta.putArray("tool_calls").addObject().put("index", toolCalls);
                call.putObject("function").put("arguments", text);
            }
        }
        chunk(delta, null);
    }

    @Override
    protected void onBlockStop(Kind kind) {
    }

    @Override
    protected void onEnd(StopReason reason, String stopSequence, TokenUsage usage) {
        chunk(JSON.createObjectNode(), reason.toChat());
        if (includeUsage && usageSeen()) {
            ObjectNode last = base();
            last.putArray("choices");
            last.set("usage", UsageJson.write(EndpointFamily.CHAT_COMPLETIONS, usage));
            data(last);
        }
        write("data: [DONE]\n\n");
    }

    @Override
    protected void onError(String type, String message) {
        ObjectNode frame = JSON.createObjectNode();
        frame.putObject("error").put("message", message).put("type", type).putNull("param").put("code", type);
        data(frame);
    }

    private void chunk(ObjectNode delta, String finishReason) {
        ObjectNode chunk = base();
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        data(chunk);
    }

    private ObjectNode base() {
        return JSON.createObjectNode().put("id", id).put("object", "chat.completion.chunk").put("created", createdAt)
                .put("model", model);
    }
}
