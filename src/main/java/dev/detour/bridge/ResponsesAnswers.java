package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.EndpointFamily;
import java.util.ArrayList;
import java.util.List;

/** B-2: a buffered OpenAI Responses answer read into an {@link Answer} and written from one. */
final class ResponsesAnswers {
    private static final EndpointFamily RESPONSES = EndpointFamily.RESPONSES;

    private ResponsesAnswers() {
    }

    static Answer read(JsonNode body) {
        List<Part> parts = new ArrayList<>();
        for (JsonNode item : body.path("output")) {
            switch (item.path("type").asText("")) {
                case "reasoning" -> parts.add(ResponsesRequests.readReasoning(item));
                case "message" -> {
                    for (JsonNode content : item.path("content")) {
                        if ("refusal".equals(Json.text(content, "type"))) {
                            parts.add(new Part.Refusal(content.path("refusal").asText()));
                        } else if ("output_text".equals(Json.text(content, "type"))) {
                            parts.add(new Part.Text(content.path("text").asText()));
                        }
                    }
                }
                case "function_call" -> parts.add(new Part.ToolCall(Json.text(item, "call_id"),
                        Json.text(item, "name"), item.path("arguments").asText("{}")));
                default -> {
                    // built-in tool items: their tools are refused before dispatch, so none come back
                }
            }
        }
        boolean callsTool = parts.stream().anyMatch(p -> p instanceof Part.ToolCall);
        StopReason stop = StopReason.fromResponses(Json.text(body, "status"),
                Json.text(body.path("incomplete_details"), "reason"), callsTool);
        return new Answer(Json.text(body, "id"), Json.text(body, "model"), parts, stop, null,
                UsageJson.read(RESPONSES, body.get("usage")));
    }

    static ObjectNode write(Answer answer, long createdEpochSeconds, ToolNames tools) {
        ObjectNode out = Json.object();
        String id = AnswerIds.forClient(RESPONSES, answer.id());
        out.put("id", id);
        out.put("object", "response");
        out.put("created_at", createdEpochSeconds);
        out.put("status", answer.stop().toResponsesStatus());
        String incomplete = answer.stop().toResponsesIncompleteReason();
        if (incomplete == null) {
            out.putNull("incomplete_details");
        } else {
            out.putObject("incomplete_details").put("reason", incomplete);
        }
        out.putNull("error");
        out.put("model", answer.model());
        ArrayNode output = out.putArray("output");
        ArrayNode message = null;
        for (Part part : answer.parts()) {
            int index = output.size();
            if (part instanceof Part.Text t) {
                message = message != null ? message : message(output, id, index, answer.stop());
                message.addObject().put("type", "output_text").put("text", t.text()).putArray("annotations");
            } else if (part instanceof Part.Refusal r) {
                message = message != null ? message : message(output, id, index, answer.stop());
                message.addObject().put("type", "refusal").put("refusal", r.text());
            } else if (part instanceof Part.Thinking thinking) {
                message = null;
                String seal = thinking.seal() != null && thinking.seal().origin() == RESPONSES ? thinking.seal().value()
                        : AnswerIds.item("rs", id, index) + ":" + BridgedReasoning.carry(RESPONSES, thinking.seal());
                ResponsesRequests.writeReasoning(thinking, seal, output.addObject());
            } else if (part instanceof Part.ToolCall call) {
                message = null;
                writeCall(call, tools.client(call.name()), id, index, output.addObject());
            }
        }
        out.set("usage", UsageJson.write(RESPONSES, answer.usage()));
        return out;
    }

    /**
     * B-6: a call as the client named the tool: {@code function_call}, or {@code custom_tool_call} with the
     * text for a custom tool, in its namespace when it has one ({@code tool} null: the upstream's name).
     */
    private static void writeCall(Part.ToolCall call, ToolNames.Tool tool, String responseId, int index,
            ObjectNode item) {
        boolean custom = tool != null && tool.custom();
        item.put("type", custom ? "custom_tool_call" : "function_call")
                .put("id", AnswerIds.item(custom ? "ctc" : "fc", responseId, index)).put("call_id", call.id());
        if (tool != null && tool.namespace() != null) {
            item.put("namespace", tool.namespace());
        }
        item.put("name", tool == null ? call.name() : tool.name());
        if (custom) {
            item.put("input", ToolNames.inputOf(call.arguments()));
        } else {
            item.put("arguments", call.arguments());
        }
        item.put("status", "completed");
    }

    private static ArrayNode message(ArrayNode output, String responseId, int index, StopReason stop) {
        return output.addObject().put("type", "message").put("id", AnswerIds.item("msg", responseId, index))
                .put("status", stop.toResponsesStatus()).put("role", "assistant").putArray("content");
    }
}
