package dev.detour.bridge;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.bridge.ClientStreamParse.Call;
import dev.detour.core.account.EndpointFamily;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Writes an upstream stream of one protocol, in the shape its API sends (the fixtures show the real
 * ones), for given thinking, text and tool calls — each string cut into random pieces at code point
 * boundaries, as a model's tokens cut it. For property tests.
 */
final class UpstreamStreams {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Random random;
    private final StringBuilder out = new StringBuilder();
    private int sequence;

    UpstreamStreams(Random random) {
        this.random = random;
    }

    static byte[] write(EndpointFamily protocol, Random random, String thinking, String text, List<Call> calls) {
        UpstreamStreams s = new UpstreamStreams(random);
        switch (protocol) {
            case CHAT_COMPLETIONS -> s.chat(thinking, text, calls);
            case MESSAGES -> s.messages(thinking, text, calls);
            default -> s.responses(thinking, text, calls);
        }
        return s.out.toString().getBytes(StandardCharsets.UTF_8);
    }

    List<String> pieces(String whole) {
        List<String> pieces = new ArrayList<>();
        int at = 0;
        while (at < whole.length()) {
            int end = at;
            int points = 1 + random.nextInt(6);
            for (int i = 0; i < points && end < whole.length(); i++) {
                end = whole.offsetByCodePoints(end, 1);
            }
            pieces.add(whole.substring(at, end));
            at = end;
        }
        return pieces;
    }

    private void chat(String thinking, String text, List<Call> calls) {
        chunk(delta().put("role", "assistant").put("content", ""), null);
        pieces(thinking).forEach(p -> chunk(delta().put("reasoning_content", p), null));
        pieces(text).forEach(p -> chunk(delta().put("content", p), null));
        for (int i = 0; i < calls.size(); i++) {
            Call call = calls.get(i);
            ObjectNode first = delta();
            ObjectNode head = first.putArray("tool_calls").addObject().put("index", i).put("id", call.id()).put("type", "function");
            head.putObject("function").put("name", call.name()).put("arguments", "");
            chunk(first, null);
            for (String p : pieces(call.arguments())) {
                ObjectNode d = delta();
                d.putArray("tool_calls").addObject().put("index", i).putObject("function").put("arguments", p);
                chunk(d, null);
            }
        }
        chunk(delta(), calls.isEmpty() ? "stop" : "tool_calls");
        ObjectNode last = chatBase();
        last.putArray("choices");
        last.putObject("usage").put("prompt_tokens", 30).put("completion_tokens", 12).put("total_tokens", 42);
        data(null, last);
        out.append("data: [DONE]\n\n");
    }

    private void messages(String thinking, String text, List<Call> calls) {
        ObjectNode start = JSON.createObjectNode().put("type", "message_start");
        ObjectNode message = start.putObject("message").put("id", "msg_01Prop").put("type", "message")
                .put("role", "assistant").put("model", "claude-sonnet-4-5");
        message.putArray("content");
        message.putObject("usage").put("input_tokens", 30).put("output_tokens", 1);
        data("message_start", start);
        int index = 0;
        if (!thinking.isEmpty()) {
            block(index, JSON.createObjectNode().put("type", "thinking").put("thinking", ""));
            for (String p : pieces(thinking)) {
                blockDelta(index, JSON.createObjectNode().put("type", "thinking_delta").put("thinking", p));
            }
            blockDelta(index, JSON.createObjectNode().put("type", "signature_delta").put("signature", "EqQBCgIYAhIMsig=="));
            blockStop(index++);
        }
        if (!text.isEmpty()) {
            block(index, JSON.createObjectNode().put("type", "text").put("text", ""));
            data("ping", JSON.createObjectNode().put("type", "ping"));
            for (String p : pieces(text)) {
                blockDelta(index, JSON.createObjectNode().put("type", "text_delta").put("text", p));
            }
            blockStop(index++);
        }
        for (Call call : calls) {
            ObjectNode block = JSON.createObjectNode().put("type", "tool_use").put("id", call.id()).put("name", call.name());
            block.putObject("input");
            block(index, block);
            for (String p : pieces(call.arguments())) {
                blockDelta(index, JSON.createObjectNode().put("type", "input_json_delta").put("partial_json", p));
            }
            blockStop(index++);
        }
        ObjectNode end = JSON.createObjectNode().put("type", "message_delta");
        end.putObject("delta").put("stop_reason", calls.isEmpty() ? "end_turn" : "tool_use").putNull("stop_sequence");
        end.putObject("usage").put("output_tokens", 12);
        data("message_delta", end);
        data("message_stop", JSON.createObjectNode().put("type", "message_stop"));
    }

    private void responses(String thinking, String text, List<Call> calls) {
        ObjectNode created = JSON.createObjectNode();
        created.putObject("response").put("id", "resp_prop").put("object", "response").put("status", "in_progress")
                .put("model", "gpt-5").putArray("output");
        event("response.created", created);
        ArrayNode output = JSON.createArrayNode();
        if (!thinking.isEmpty()) {
            String id = "rs_" + output.size();
            event("response.output_item.added", item(output.size(), JSON.createObjectNode().put("id", id).put("type", "reasoning")));
            for (String p : pieces(thinking)) {
                event("response.reasoning_summary_text.delta", JSON.createObjectNode().put("item_id", id)
                        .put("output_index", output.size()).put("summary_index", 0).put("delta", p));
            }
            ObjectNode done = JSON.createObjectNode().put("id", id).put("type", "reasoning").put("encrypted_content", "gAAAAprop");
            done.putArray("summary").addObject().put("type", "summary_text").put("text", thinking);
            event("response.output_item.done", item(output.size(), done));
            output.add(done);
        }
        if (!text.isEmpty()) {
            String id = "msg_" + output.size();
            event("response.output_item.added", item(output.size(), JSON.createObjectNode().put("id", id).put("type", "message")));
            ObjectNode part = JSON.createObjectNode().put("item_id", id).put("output_index", output.size()).put("content_index", 0);
            part.putObject("part").put("type", "output_text").put("text", "");
            event("response.content_part.added", part);
            for (String p : pieces(text)) {
                event("response.output_text.delta", JSON.createObjectNode().put("item_id", id)
                        .put("output_index", output.size()).put("content_index", 0).put("delta", p));
            }
            event("response.output_text.done", JSON.createObjectNode().put("item_id", id).put("text", text));
            event("response.content_part.done", part);
            ObjectNode done = JSON.createObjectNode().put("id", id).put("type", "message");
            done.putArray("content").addObject().put("type", "output_text").put("text", text);
            event("response.output_item.done", item(output.size(), done));
            output.add(done);
        }
        for (Call call : calls) {
            String id = "fc_" + output.size();
            ObjectNode added = JSON.createObjectNode().put("id", id).put("type", "function_call").put("call_id", call.id())
                    .put("name", call.name()).put("arguments", "");
            event("response.output_item.added", item(output.size(), added));
            for (String p : pieces(call.arguments())) {
                event("response.function_call_arguments.delta", JSON.createObjectNode().put("item_id", id)
                        .put("output_index", output.size()).put("delta", p));
            }
            ObjectNode done = added.deepCopy().put("arguments", call.arguments());
            event("response.output_item.done", item(output.size(), done));
            output.add(done);
        }
        ObjectNode completed = JSON.createObjectNode();
        ObjectNode response = completed.putObject("response").put("id", "resp_prop").put("status", "completed")
                .put("model", "gpt-5");
        response.set("output", output);
        response.putObject("usage").put("input_tokens", 30).put("output_tokens", 12).put("total_tokens", 42);
        event("response.completed", completed);
    }

    private ObjectNode item(int index, ObjectNode item) {
        ObjectNode event = JSON.createObjectNode().put("output_index", index);
        event.set("item", item);
        return event;
    }

    private void event(String type, ObjectNode body) {
        ObjectNode event = JSON.createObjectNode().put("type", type).put("sequence_number", sequence++);
        event.setAll(body);
        data(type, event);
    }

    private void block(int index, ObjectNode block) {
        ObjectNode start = JSON.createObjectNode().put("type", "content_block_start").put("index", index);
        start.set("content_block", block);
        data("content_block_start", start);
    }

    private void blockDelta(int index, ObjectNode delta) {
        ObjectNode event = JSON.createObjectNode().put("type", "content_block_delta").put("index", index);
        event.set("delta", delta);
        data("content_block_delta", event);
    }

    private void blockStop(int index) {
        data("content_block_stop", JSON.createObjectNode().put("type", "content_block_stop").put("index", index));
    }

    private ObjectNode delta() {
        return JSON.createObjectNode();
    }

    private ObjectNode chatBase() {
        return JSON.createObjectNode().put("id", "chatcmpl-prop").put("object", "chat.completion.chunk")
                .put("created", 1741570283).put("model", "gpt-4o");
    }

    private void chunk(ObjectNode delta, String finishReason) {
        ObjectNode chunk = chatBase();
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        choice.put("finish_reason", finishReason);
        data(null, chunk);
    }

    private void data(String name, ObjectNode data) {
        if (name != null) {
            out.append("event: ").append(name).append('\n');
        }
        out.append("data: ").append(data.toString()).append("\n\n");
    }
}
