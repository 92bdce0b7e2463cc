package dev.detour.bridge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;

/**
 * B-2: an Anthropic Messages client's stream: {@code message_start}, each block as
 * {@code content_block_start / _delta / _stop} with ascending indexes, {@code message_delta} (stop reason
 * and usage) and {@code message_stop}. A refusal is text here (Messages says so with the {@code refusal}
 * stop reason). A thinking block always ends with a {@code signature_delta}, as Anthropic's do: the
 * upstream's reasoning proof sealed ({@link #sealedProof}), so the block is known as Detour's when Claude
 * Code sends it back. An upstream error becomes {@code event: error} in Anthropic's envelope.
 */
final class MessagesStreamWriter extends StreamWriter {
    private int index = -1;
    private boolean refused;

    MessagesStreamWriter(EndpointFamily upstream, long createdAt) {
        super(upstream, createdAt);
    }

    @Override
    protected void onStart(String upstreamId, String model) {
        ObjectNode message = JSON.createObjectNode().put("id", AnswerIds.forClient(EndpointFamily.MESSAGES, upstreamId))
                .put("type", "message").put("role", "assistant").put("model", model);
        message.putArray("content");
        message.putNull("stop_reason");
        message.putNull("stop_sequence");
        message.set("usage", UsageJson.write(EndpointFamily.MESSAGES, usage()));
        ObjectNode start = JSON.createObjectNode().put("type", "message_start");
        start.set("message", message);
        event("message_start", start);
    }

    @Override
    protected void onBlockStart(Kind kind, String callId, String name) {
        index++;
        refused |= kind == Kind.REFUSAL;
        ObjectNode block = JSON.createObjectNode();
        switch (kind) {
            case TEXT, REFUSAL -> block.put("type", "text").put("text", "");
            case THINKING -> block.put("type", "thinking").put("thinking", "");
            case TOOL_CALL -> {
                block.put("type", "tool_use").put("id", callId).put("name", name);
                block.putObject("input");
            }
        }
        ObjectNode start = JSON.createObjectNode().put("type", "content_block_start").put("index", index);
        start.set("content_block", block);
        event("content_block_start", start);
    }

    @Override
    protected void onDelta(Kind kind, String text) {
        ObjectNode delta = JSON.createObjectNode();
        switch (kind) {
            case TEXT, REFUSAL -> delta.put("type", "text_delta").put("text", text);
            case THINKING -> delta.put("type", "thinking_delta").put("thinking", text);
            case TOOL_CALL -> delta.put("type", "input_json_delta").put("partial_json", text);
        }
        blockDelta(delta);
    }

    @Override
    protected void onBlockStop(Kind kind) {
        if (kind == Kind.THINKING) {
            blockDelta(JSON.createObjectNode().put("type", "signature_delta")
                    .put("signature", sealedProof()));
        }
        event("content_block_stop", JSON.createObjectNode().put("type", "content_block_stop").put("index", index));
    }

    @Override
    protected void onEnd(StopReason reason, String stopSequence, TokenUsage usage) {
        ObjectNode messageDelta = JSON.createObjectNode().put("type", "message_delta");
        StopReason said = refused && reason == StopReason.END ? StopReason.REFUSAL : reason; // Chat ends a refusal with "stop"
        messageDelta.putObject("delta").put("stop_reason", said.toMessages()).put("stop_sequence", stopSequence);
        messageDelta.set("usage", UsageJson.write(EndpointFamily.MESSAGES, usage));
        event("message_delta", messageDelta);
        event("message_stop", JSON.createObjectNode().put("type", "message_stop"));
    }

    @Override
    protected void onKeepAlive() {
        event("ping", JSON.createObjectNode().put("type", "ping"));
    }

    @Override
    protected void onError(String type, String message) {
        ObjectNode error = JSON.createObjectNode().put("type", "error");
        error.putObject("error").put("type", anthropicType(type)).put("message", message);
        event("error", error);
    }

    /** Anthropic's error types all end in {@code _error}; an OpenAI code is read for the nearest one. */
    private static String anthropicType(String type) {
        if (type.endsWith("_error")) {
            return type.equals("server_error") ? "api_error" : type;
        }
        if (type.contains("rate_limit")) {
            return "rate_limit_error";
        }
        return type.contains("overload") ? "overloaded_error" : "api_error";
    }

    private void blockDelta(ObjectNode delta) {
        ObjectNode event = JSON.createObjectNode().put("type", "content_block_delta").put("index", index);
        event.set("delta", delta);
        event("content_block_delta", event);
    }
}
