package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.EndpointFamily;
import java.util.ArrayList;
import java.util.List;

/**
 * B-2: a buffered Anthropic Messages answer read into an {@link Answer} and written from one. Anthropic
 * says "refused" by stop reason {@code refusal}, with the explanation as text; the other protocols have
 * a refusal field, so that text reads as a {@link Part.Refusal}.
 */
final class MessagesAnswers {
    private static final EndpointFamily MESSAGES = EndpointFamily.MESSAGES;

    private MessagesAnswers() {
    }

    static Answer read(JsonNode body) {
        StopReason stop = StopReason.fromMessages(Json.text(body, "stop_reason"));
        List<Part> parts = new ArrayList<>();
        for (JsonNode block : body.path("content")) {
            switch (block.path("type").asText("")) {
                case "text" -> parts.add(stop == StopReason.REFUSAL ? new Part.Refusal(block.path("text").asText())
                        : new Part.Text(block.path("text").asText()));
                case "thinking" -> parts.add(new Part.Thinking(block.path("thinking").asText(),
                        BridgedReasoning.read(MESSAGES, Json.text(block, "signature"), false)));
                case "redacted_thinking" -> parts.add(new Part.Thinking("",
                        BridgedReasoning.read(MESSAGES, Json.text(block, "data"), true)));
                case "tool_use" -> parts.add(new Part.ToolCall(Json.text(block, "id"), Json.text(block, "name"),
                        Json.write(block.get("input"))));
                default -> {
                    // server tool blocks: their tools are refused before dispatch, so none come back
                }
            }
        }
        return new Answer(Json.text(body, "id"), Json.text(body, "model"), parts, stop,
                Json.text(body, "stop_sequence"), UsageJson.read(MESSAGES, body.get("usage")));
    }

    static ObjectNode write(Answer answer) {
        ObjectNode out = Json.object();
        out.put("id", AnswerIds.forClient(MESSAGES, answer.id()));
        out.put("type", "message");
        out.put("role", "assistant");
        out.put("model", answer.model());
        ArrayNode content = out.putArray("content");
        for (Part part : answer.parts()) {
            if (part instanceof Part.Text t) {
                content.addObject().put("type", "text").put("text", t.text());
            } else if (part instanceof Part.Refusal r) {
                content.addObject().put("type", "text").put("text", r.text());
            } else if (part instanceof Part.Thinking thinking) {
                writeThinking(thinking, content.addObject());
            } else if (part instanceof Part.ToolCall call) {
                JsonNode input = Json.parse(call.arguments());
                if (input == null || !input.isObject()) { // the model's broken arguments, kept for the client to see
                    input = Json.object().put("arguments", call.arguments());
                }
                content.addObject().put("type", "tool_use").put("id", call.id()).put("name", call.name())
                        .set("input", input);
            }
        }
        StopReason stop = answer.refused() ? StopReason.REFUSAL : answer.stop();
        out.put("stop_reason", stop.toMessages());
        out.put("stop_sequence", stop == StopReason.STOP_SEQUENCE ? answer.stopSequence() : null);
        out.set("usage", UsageJson.write(MESSAGES, answer.usage()));
        return out;
    }

    private static void writeThinking(Part.Thinking thinking, ObjectNode block) {
        if (thinking.seal() != null && thinking.seal().origin() == MESSAGES && thinking.seal().redacted()) {
            block.put("type", "redacted_thinking").put("data", thinking.seal().value());
            return;
        }
        block.put("type", "thinking").put("thinking", thinking.text())
                .put("signature", BridgedReasoning.carry(MESSAGES, thinking.seal()));
    }
}
