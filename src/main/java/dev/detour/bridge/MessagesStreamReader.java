package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.bridge.StreamWriter.Kind;
import dev.detour.core.account.EndpointFamily;
import java.util.HashSet;
import java.util.Set;

/**
 * B-2: reads an Anthropic Messages stream: {@code message_start} (id, model, input usage), blocks by
 * {@code content_block_start / _delta / _stop} (text, tool_use with {@code input_json_delta}, thinking with
 * {@code thinking_delta} and its {@code signature_delta}), {@code message_delta} (stop reason, stop
 * sequence, output usage), {@code message_stop} (the end), {@code ping} (the client's keep-alive) and {@code error}. A
 * {@code redacted_thinking} block is thinking without text whose {@code data} is its proof. Server tool
 * blocks (their tools are refused before dispatch) are passed over with their deltas. The event's
 * {@code type} in the data decides, the {@code event:} line is a fallback.
 */
final class MessagesStreamReader implements StreamReader {
    private final Set<Integer> passedOver = new HashSet<>();

    @Override
    public void read(String name, JsonNode data, StreamWriter to) {
        String type = StreamReader.text(data, "type");
        switch (type != null ? type : name == null ? "" : name) {
            case "message_start" -> {
                JsonNode message = data.path("message");
                to.start(StreamReader.text(message, "id"), StreamReader.text(message, "model"),
                        UsageJson.read(EndpointFamily.MESSAGES, message.get("usage")));
            }
            case "content_block_start" -> blockStart(data.path("index").asInt(), data.path("content_block"), to);
            case "content_block_delta" -> {
                if (!passedOver.contains(data.path("index").asInt())) {
                    delta(data.path("delta"), to);
                }
            }
            case "content_block_stop" -> {
                if (!passedOver.contains(data.path("index").asInt())) {
                    to.blockStop();
                }
            }
            case "message_delta" -> {
                to.usage(UsageJson.read(EndpointFamily.MESSAGES, data.get("usage")));
                JsonNode delta = data.path("delta");
                to.stop(StopReason.fromMessages(StreamReader.text(delta, "stop_reason")),
                        StreamReader.text(delta, "stop_sequence"));
            }
            case "message_stop" -> to.end();
            case "ping" -> to.keepAlive();
            case "error" -> {
                JsonNode error = data.path("error");
                to.error(StreamReader.text(error, "type"), StreamReader.text(error, "message"));
            }
            default -> {
            }
        }
    }

    private void blockStart(int index, JsonNode block, StreamWriter to) {
        switch (String.valueOf(StreamReader.text(block, "type"))) {
            case "text" -> {
                to.blockStart(Kind.TEXT, null, null);
                to.delta(StreamReader.text(block, "text"));
            }
            case "thinking" -> {
                to.blockStart(Kind.THINKING, null, null);
                to.delta(StreamReader.text(block, "thinking"));
                to.signature(StreamReader.text(block, "signature"), false);
            }
            case "redacted_thinking" -> {
                to.blockStart(Kind.THINKING, null, null);
                to.signature(StreamReader.text(block, "data"), true);
            }
            case "tool_use" -> {
                to.blockStart(Kind.TOOL_CALL, StreamReader.text(block, "id"), StreamReader.text(block, "name"));
                JsonNode input = block.path("input");
                if (input.isObject() && !input.isEmpty()) {
                    to.delta(input.toString());
                }
            }
            default -> passedOver.add(index);
        }
    }

    private static void delta(JsonNode delta, StreamWriter to) {
        switch (String.valueOf(StreamReader.text(delta, "type"))) {
            case "text_delta" -> to.delta(StreamReader.text(delta, "text"));
            case "input_json_delta" -> to.delta(StreamReader.text(delta, "partial_json"));
            case "thinking_delta" -> to.delta(StreamReader.text(delta, "thinking"));
            case "signature_delta" -> to.signature(StreamReader.text(delta, "signature"), false);
            default -> {
            }
        }
    }
}
