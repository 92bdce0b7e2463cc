package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.bridge.StreamWriter.Kind;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * B-2: reads a Chat Completions stream ({@code data: {chunk}} … {@code data: [DONE]}). Only choice 0 is
 * read (a bridged request asks for one). A delta's {@code reasoning_content} (or {@code reasoning}) is
 * thinking, {@code refusal} a refusal, {@code content} text, and each {@code tool_calls[]} piece belongs to a
 * tool call whose {@code function.arguments} pieces are its JSON. The first call is streamed as it comes; any
 * later one is kept whole and written at the finish: OpenAI sends parallel calls one after the other, but
 * OpenAI-compatible backends interleave their pieces (call 0, call 1, call 0 again), give every call index 0
 * with its own id, or leave the index out — a client stream that had closed a call could not take its late
 * piece, and one open call taking another's pieces would hand the client concatenated JSON. A piece's call is
 * its index, unless it brings an id other than that call's (a new call); without an index, the last call
 * unless its id says otherwise. The answer ends at [DONE] — usage comes in a last chunk with empty choices after the
 * finish_reason when {@code stream_options.include_usage} was set — or, failing that, at the body's end
 * after a finish_reason. A chunk with an {@code error} object is the upstream's error.
 */
final class ChatStreamReader implements StreamReader {
    private Kind open;
    /** The call streamed as it comes (-1: none yet); its block stays open until the finish or other content. */
    private int streamed = -1;
    /** Each call's slot by the index the upstream gave it (the latest call given that index). */
    private final Map<Integer, Integer> slotOfIndex = new HashMap<>();
    /** The calls after the streamed one, by slot (their order of arrival), written whole at the finish. */
    private final Map<Integer, HeldCall> held = new TreeMap<>();
    private final List<String> idOfSlot = new ArrayList<>();
    private int lastSlot = -1;
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
            writeHeld(to);
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
        String id = StreamReader.text(call, "id");
        JsonNode function = call.path("function");
        String name = StreamReader.text(function, "name");
        String arguments = StreamReader.text(function, "arguments");
        int slot = slotOf(call.path("index"), id);
        if (streamed < 0) { // the answer's first call: nothing is held before it
            streamed = slot;
            to.blockStart(Kind.TOOL_CALL, id, name);
            open = Kind.TOOL_CALL;
        }
        if (slot == streamed) {
            if (open == Kind.TOOL_CALL) { // else other content closed it: the upstream broke its own order
                to.delta(arguments);
            }
            return;
        }
        held.computeIfAbsent(slot, s -> new HeldCall()).add(id, name, arguments);
    }

    /** The piece's call: by its index unless it brings another id; without an index the last call, idem. */
    private int slotOf(JsonNode index, String id) {
        Integer slot = index.canConvertToInt() ? slotOfIndex.get(index.asInt()) : lastSlot >= 0 ? lastSlot : null;
        if (slot == null || id != null && idOfSlot.get(slot) != null && !id.equals(idOfSlot.get(slot))) {
            slot = idOfSlot.size();
            idOfSlot.add(id);
            if (index.canConvertToInt()) {
                slotOfIndex.put(index.asInt(), slot);
            }
        } else if (id != null && idOfSlot.get(slot) == null) {
            idOfSlot.set(slot, id);
        }
        lastSlot = slot;
        return slot;
    }

    /** The calls kept whole, each as one block, in the order they started. */
    private void writeHeld(StreamWriter to) {
        for (HeldCall call : held.values()) {
            to.blockStart(Kind.TOOL_CALL, call.id, call.name);
            to.delta(call.arguments.toString());
            to.blockStop();
        }
        held.clear();
    }

    /** A call after the streamed one: its id and name as first given, its arguments as they arrive. */
    private static final class HeldCall {
        private String id;
        private String name;
        private final StringBuilder arguments = new StringBuilder();

        void add(String id, String name, String pieceOfArguments) {
            this.id = this.id == null ? id : this.id;
            this.name = this.name == null ? name : this.name;
            if (pieceOfArguments != null) {
                arguments.append(pieceOfArguments);
            }
        }
    }
}
