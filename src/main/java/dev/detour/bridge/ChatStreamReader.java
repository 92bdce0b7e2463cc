package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.bridge.StreamWriter.Kind;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;

/**
 * B-2: reads a Chat Completions stream ({@code data: {chunk}} … {@code data: [DONE]}). Only choice 0 is
 * read (a bridged request asks for one). A delta's {@code reasoning_content} (or {@code reasoning}) is
 * thinking, {@code refusal} a refusal, {@code content} text, and each new {@code tool_calls[].index} starts
 * a tool call whose {@code function.arguments} pieces are its JSON. OpenAI streams parallel calls one after
 * the other; a piece for a call already left behind cannot be placed in a client stream that closed it
 * and is dropped. The answer ends at [DONE] — usage comes in a last chunk with empty choices after the
 * finish_reason when {@code stream_options.include_usage} was set — or, failing that, at the body's end
 * after a finish_reason. A chunk with an {@code error} object is the upstream's error.
 */
final class ChatStreamReader implements StreamReader {
    private Kind open;
    private int toolIndex = -1;
    private boolean finished;

    @Override
    public void read(String name, JsonNode chunk, StreamWriter to) {
        JsonNode error = chunk.get("error");
        if (error != null && error.isObject()) {
            String type = StreamReader.text(error, "type");
            to.error(type != null ? type : StreamReader.text(error, "code"), StreamReader.text(error, "message"));
            return;
        }
        to.start(StreamReader.text(chunk, "id"), StreamReader.text(chunk, "model"), TokenUsage.NONE);
        to.usage(UsageJson.read(EndpointFamily.CHAT_COMPLETIONS, chunk.get("usage")));
        JsonNode choice = chunk.path("choices").path(0);
        if (!choice.isObject()) {
            return;
        }
        JsonNode delta = choice.path("delta");
        String reasoning = StreamReader.text(delta, "reasoning_content");
        piece(Kind.THINKING, reasoning != null ? reasoning : StreamReader.text(delta, "reasoning"), to);
        piece(Kind.REFUSAL, StreamReader.text(delta, "refusal"), to);
        piece(Kind.TEXT, StreamReader.text(delta, "content"), to);
        for (JsonNode call : delta.path("tool_calls")) {
            toolCall(call, to);
        }
        String finishReason = StreamReader.text(choice, "finish_reason");
        if (finishReason != null) {
            to.blockStop();
            open = null;
            finished = true;
            to.stop(StopReason.fromChat(finishReason), null);
        }
    }

    @Override
    public void done(StreamWriter to) {
        to.end();
    }

    @Override
    public boolean endPending() {
        return finished;
    }

    private void piece(Kind kind, String text, StreamWriter to) {
        if (text == null || text.isEmpty()) {
            return;
        }
        if (open != kind) {
            to.blockStart(kind, null, null);
            open = kind;
        }
        to.delta(text);
    }

    private void toolCall(JsonNode call, StreamWriter to) {
        int index = call.path("index").asInt(toolIndex < 0 ? 0 : toolIndex);
        JsonNode function = call.path("function");
        if (index > toolIndex) {
            to.blockStart(Kind.TOOL_CALL, StreamReader.text(call, "id"), StreamReader.text(function, "name"));
            open = Kind.TOOL_CALL;
            toolIndex = index;
        }
        if (index == toolIndex && open == Kind.TOOL_CALL) {
            to.delta(StreamReader.text(function, "arguments"));
        }
    }
}
