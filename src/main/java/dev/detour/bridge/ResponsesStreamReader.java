package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.bridge.StreamWriter.Kind;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;

/**
 * B-2: reads an OpenAI Responses stream. {@code response.created} starts it; a message item's content parts
 * ({@code output_text}, {@code refusal}), a {@code function_call} item and a {@code reasoning} item are
 * blocks, filled by their delta events and closed by {@code content_part.done} / {@code output_item.done};
 * a reasoning item's summary parts are joined by a blank line, its id and {@code encrypted_content} (when
 * the request included it) are its proof, as {@code <item id>:<encrypted_content>}. {@code response.completed} / {@code response.incomplete} give usage,
 * status and the end; {@code response.failed} and {@code error} are the upstream's error. The data's
 * {@code type} decides; the {@code event:} line is a fallback.
 */
final class ResponsesStreamReader implements StreamReader {
    private boolean callsTool;

    @Override
    public void read(String name, JsonNode data, StreamWriter to) {
        String type = StreamReader.text(data, "type");
        switch (type != null ? type : name == null ? "" : name) {
            case "response.created", "response.in_progress" -> {
                JsonNode response = data.path("response");
                to.start(StreamReader.text(response, "id"), StreamReader.text(response, "model"), TokenUsage.NONE);
            }
            case "response.output_item.added" -> itemAdded(data.path("item"), to);
            case "response.content_part.added" -> {
                String part = StreamReader.text(data.path("part"), "type");
                if ("output_text".equals(part) || "refusal".equals(part)) {
                    to.blockStart("refusal".equals(part) ? Kind.REFUSAL : Kind.TEXT, null, null);
                }
            }
            case "response.reasoning_summary_part.added" -> {
                if (data.path("summary_index").asInt() > 0) {
                    to.delta("\n\n");
                }
            }
            case "response.output_text.delta", "response.refusal.delta", "response.function_call_arguments.delta",
                    "response.reasoning_summary_text.delta", "response.reasoning_text.delta" ->
                    to.delta(StreamReader.text(data, "delta"));
            case "response.content_part.done" -> to.blockStop();
            case "response.output_item.done" -> {
                JsonNode item = data.path("item");
                String encrypted = StreamReader.text(item, "encrypted_content");
                if ("reasoning".equals(StreamReader.text(item, "type")) && encrypted != null) {
                    to.signature(StreamReader.text(item, "id") + ":" + encrypted, false);
                }
                to.blockStop();
            }
            case "response.completed", "response.incomplete" -> {
                JsonNode response = data.path("response");
                to.usage(UsageJson.read(EndpointFamily.RESPONSES, response.get("usage")));
                to.stop(StopReason.fromResponses(StreamReader.text(response, "status"),
                        StreamReader.text(response.path("incomplete_details"), "reason"), callsTool), null);
                to.end();
            }
            case "response.failed" -> {
                JsonNode error = data.path("response").path("error");
                to.error(StreamReader.text(error, "code"), StreamReader.text(error, "message"));
            }
            case "error" -> to.error(StreamReader.text(data, "code"), StreamReader.text(data, "message"));
            default -> {
            }
        }
    }

    private void itemAdded(JsonNode item, StreamWriter to) {
        switch (String.valueOf(StreamReader.text(item, "type"))) {
            case "function_call" -> {
                callsTool = true;
                to.blockStart(Kind.TOOL_CALL, StreamReader.text(item, "call_id"), StreamReader.text(item, "name"));
                to.delta(StreamReader.text(item, "arguments"));
            }
            case "reasoning" -> to.blockStart(Kind.THINKING, null, null);
            default -> {
            }
        }
    }
}
