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
 * {@code type} decides; the {@code event:} line is a fallback. Relays that implement the API loosely are
 * read too: a text, refusal or reasoning delta with no part opened for it opens its block, and a block
 * whose {@code .done} event brings text no delta did gets that text as one piece.
 */
final class ResponsesStreamReader implements StreamReader {
    private boolean callsTool;
    private boolean pieceSeen;

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
                    pieceSeen = false;
                }
            }
            case "response.reasoning_summary_part.added" -> {
                if (data.path("summary_index").asInt() > 0) {
                    to.delta("\n\n");
                }
            }
            case "response.output_text.delta" -> piece(Kind.TEXT, StreamReader.text(data, "delta"), to);
            case "response.refusal.delta" -> piece(Kind.REFUSAL, StreamReader.text(data, "delta"), to);
            case "response.reasoning_summary_text.delta", "response.reasoning_text.delta" ->
                    piece(Kind.THINKING, StreamReader.text(data, "delta"), to);
            case "response.function_call_arguments.delta" -> {
                if (to.open() == Kind.TOOL_CALL) { // arguments without their call's id and name cannot be placed
                    piece(Kind.TOOL_CALL, StreamReader.text(data, "delta"), to);
                }
            }
            case "response.output_text.done" -> whole(Kind.TEXT, StreamReader.text(data, "text"), to);
            case "response.refusal.done" -> whole(Kind.REFUSAL, StreamReader.text(data, "refusal"), to);
            case "response.function_call_arguments.done" -> {
                if (to.open() == Kind.TOOL_CALL) {
                    whole(Kind.TOOL_CALL, StreamReader.text(data, "arguments"), to);
                }
            }
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
                pieceSeen = false;
                piece(Kind.TOOL_CALL, StreamReader.text(item, "arguments"), to);
            }
            case "reasoning" -> {
                to.blockStart(Kind.THINKING, null, null);
                pieceSeen = false;
            }
            default -> {
            }
        }
    }

    /** A piece of the block of this kind, opening it when the upstream did not. */
    private void piece(Kind kind, String text, StreamWriter to) {
        if (text == null || text.isEmpty()) {
            return;
        }
        if (to.open() != kind) {
            to.blockStart(kind, null, null);
        }
        pieceSeen = true;
        to.delta(text);
    }

    /** A block's whole text from its .done event: written only when no delta brought it. */
    private void whole(Kind kind, String text, StreamWriter to) {
        if (!pieceSeen || to.open() != kind) {
            piece(kind, text, to);
        }
    }
}
