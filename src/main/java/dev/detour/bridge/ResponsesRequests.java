package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.bridge.Conversation.Reasoning;
import dev.detour.bridge.Conversation.Role;
import dev.detour.bridge.Conversation.ToolSpec;
import dev.detour.bridge.Conversation.Turn;
import dev.detour.core.account.EndpointFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * B-2: an OpenAI Responses request read into a {@link Conversation} and written from one. A bridged
 * request is stateless on both sides: what the upstream would keep ({@code previous_response_id},
 * {@code conversation}, {@code store: true}, {@code background}) is refused, and a request written for a
 * Responses upstream says {@code store: false} and asks for the reasoning's {@code encrypted_content},
 * which is how the reasoning comes back on the next turn without stored state.
 */
final class ResponsesRequests {
    private static final EndpointFamily RESPONSES = EndpointFamily.RESPONSES;
    private static final Set<String> BUILTIN_ITEMS = Set.of("web_search_call", "file_search_call", "computer_call",
            "computer_call_output", "code_interpreter_call", "image_generation_call", "local_shell_call",
            "local_shell_call_output", "shell_call", "shell_call_output", "apply_patch_call",
            "apply_patch_call_output", "mcp_call", "mcp_list_tools", "mcp_approval_request", "mcp_approval_response");

    private ResponsesRequests() {
    }

    static Conversation read(JsonNode body) throws BridgeRefusal {
        refuseState(body);
        List<String> system = new ArrayList<>();
        String instructions = Json.text(body, "instructions");
        if (instructions != null) {
            system.add(instructions);
        }
        Turns turns = new Turns();
        JsonNode input = body.path("input");
        if (input.isTextual()) {
            turns.add(Role.USER, new Part.Text(input.asText()));
        }
        for (JsonNode item : input.isArray() ? input : Json.NODES.arrayNode()) {
            readItem(item, system, turns);
        }
        List<ToolSpec> tools = new ArrayList<>();
        for (JsonNode tool : body.path("tools")) {
            String type = Json.text(tool, "type");
            if ("custom".equals(type)) {
                throw BridgeRefusal.onlyIn(RESPONSES, "custom_tool", "A custom (free-form) tool");
            }
            if (!"function".equals(type)) {
                throw BridgeRefusal.onlyIn(RESPONSES, "builtin_tool", "OpenAI's built-in tool " + type);
            }
            tools.add(new ToolSpec(Json.text(tool, "name"), Json.text(tool, "description"), tool.get("parameters"),
                    Json.bool(tool, "strict")));
        }
        JsonNode reasoningNode = body.path("reasoning");
        String effort = Json.text(reasoningNode, "effort");
        Reasoning reasoning = effort == null ? null : new Reasoning(effort, null, "none".equals(effort));
        String user = Json.text(body, "user") != null ? Json.text(body, "user") : Json.text(body, "safety_identifier");
        return new Conversation(system, turns.build(), tools,
                OpenAiShapes.readToolChoice(body.get("tool_choice"), RESPONSES), Json.bool(body, "parallel_tool_calls"),
                Json.integer(body, "max_output_tokens"), Json.number(body, "temperature"), Json.number(body, "top_p"),
                null, List.of(),
                Boolean.TRUE.equals(Json.bool(body, "stream")), reasoning, textFormat(body),
                user, Json.stringMap(body, "metadata"));
    }

    private static Conversation.ResponseFormat textFormat(JsonNode body) {
        JsonNode format = body.path("text").path("format");
        return OpenAiShapes.readFormat(format, format);
    }

    /** What only a Responses upstream could hold or do for the client; refused when asked for. */
    private static void refuseState(JsonNode body) throws BridgeRefusal {
        if (Json.has(body, "previous_response_id")) {
            throw BridgeRefusal.onlyIn(RESPONSES, "previous_response_id",
                    "A previous_response_id (state kept upstream)");
        }
        if (Json.has(body, "conversation")) {
            throw BridgeRefusal.onlyIn(RESPONSES, "conversation", "A conversation (state kept upstream)");
        }
        if (body.path("store").asBoolean(false)) {
            throw BridgeRefusal.onlyIn(RESPONSES, "store", "store: true (a response kept upstream)");
        }
        if (body.path("background").asBoolean(false)) {
            throw BridgeRefusal.onlyIn(RESPONSES, "background", "A background response");
        }
        if (Json.has(body, "prompt")) {
            throw BridgeRefusal.onlyIn(RESPONSES, "prompt_template", "A stored prompt template");
        }
        if (Json.has(body, "top_logprobs")) {
            throw BridgeRefusal.onlyIn(RESPONSES, "logprobs", "Log probabilities");
        }
        if (Json.has(body, "max_tool_calls")) {
            throw BridgeRefusal.onlyIn(RESPONSES, "max_tool_calls", "max_tool_calls");
        }
        if ("auto".equals(Json.text(body, "truncation"))) {
            throw BridgeRefusal.onlyIn(RESPONSES, "truncation", "truncation: auto");
        }
    }

    private static void readItem(JsonNode item, List<String> system, Turns turns) throws BridgeRefusal {
        String type = Json.text(item, "type");
        switch (type == null ? "message" : type) {
            case "message" -> readMessage(item, system, turns);
            case "function_call" -> turns.add(Role.ASSISTANT, new Part.ToolCall(Json.text(item, "call_id"),
                    Json.text(item, "name"), item.path("arguments").asText("{}")));
            case "function_call_output" -> turns.add(Role.USER, new Part.ToolResult(Json.text(item, "call_id"),
                    readContent(item.get("output")), false));
            case "reasoning" -> turns.add(Role.ASSISTANT, readReasoning(item));
            case "item_reference" -> throw BridgeRefusal.onlyIn(RESPONSES, "previous_response_id",
                    "An item_reference (an item kept upstream)");
            case "custom_tool_call", "custom_tool_call_output" ->
                    throw BridgeRefusal.onlyIn(RESPONSES, "custom_tool", "A custom (free-form) tool call");
            default -> {
                if (BUILTIN_ITEMS.contains(type)) {
                    throw BridgeRefusal.onlyIn(RESPONSES, "builtin_tool", "A " + type + " item");
                }
                throw BridgeRefusal.onlyIn(RESPONSES, "input_item", "An input item of type " + type);
            }
        }
    }

    private static void readMessage(JsonNode item, List<String> system, Turns turns) throws BridgeRefusal {
        String role = Json.text(item, "role");
        List<Part> content = readContent(item.get("content"));
        switch (role == null ? "" : role) {
            case "system", "developer" -> {
                StringBuilder text = new StringBuilder();
                for (Part part : content) {
                    if (!(part instanceof Part.Text t)) {
                        throw BridgeRefusal.onlyIn(RESPONSES, "system_image", "An image in a system message");
                    }
                    text.append(text.isEmpty() ? "" : "\n").append(t.text());
                }
                system.add(text.toString());
            }
            case "assistant" -> turns.addAll(Role.ASSISTANT, content);
            default -> turns.addAll(Role.USER, content);
        }
    }

    /** The summary is the reasoning shown; id and encrypted content are the seal (see {@link Part.Seal}). */
    static Part.Thinking readReasoning(JsonNode item) {
        StringBuilder text = new StringBuilder();
        for (JsonNode summary : item.path("summary")) {
            text.append(text.isEmpty() ? "" : "\n\n").append(summary.path("text").asText());
        }
        String encrypted = Json.text(item, "encrypted_content");
        Part.Seal seal = encrypted == null ? null : BridgedReasoning.read(RESPONSES, encrypted, false);
        if (seal != null && seal.origin() == RESPONSES) {
            seal = new Part.Seal(RESPONSES, Json.text(item, "id") + ":" + encrypted, false);
        }
        return new Part.Thinking(text.toString(), seal);
    }

    private static List<Part> readContent(JsonNode content) throws BridgeRefusal {
        return Content.read(content, ResponsesRequests::readPart);
    }

    private static Part readPart(JsonNode part) throws BridgeRefusal {
        String type = Json.text(part, "type");
        return switch (type == null ? "" : type) {
            case "input_text", "output_text" -> new Part.Text(part.path("text").asText());
            case "refusal" -> new Part.Refusal(part.path("refusal").asText());
            case "input_image" -> {
                if (Json.text(part, "image_url") == null) {
                    throw BridgeRefusal.onlyIn(RESPONSES, "file", "An image by file_id");
                }
                yield Part.Image.of(Json.text(part, "image_url"), Json.text(part, "detail"));
            }
            case "input_file" -> throw BridgeRefusal.onlyIn(RESPONSES, "file", "An input_file part");
            case "input_audio" -> throw BridgeRefusal.onlyIn(RESPONSES, "audio", "Audio input");
            default -> throw BridgeRefusal.onlyIn(RESPONSES, "content_part", "A content part of type " + type);
        };
    }

    static ObjectNode write(Conversation c, String model) throws BridgeRefusal {
        if (!c.stop().isEmpty()) {
            throw BridgeRefusal.notIn(RESPONSES, "stop", "Stop sequences");
        }
        if (c.topK() != null) {
            throw BridgeRefusal.notIn(RESPONSES, "top_k", "top_k");
        }
        ObjectNode out = Json.object();
        out.put("model", model);
        if (!c.system().isEmpty()) {
            out.put("instructions", String.join("\n\n", c.system()));
        }
        ArrayNode input = out.putArray("input");
        for (Turn turn : c.turns()) {
            if (turn.role() == Role.USER) {
                writeUser(turn.parts(), input);
            } else {
                writeAssistant(turn.parts(), input);
            }
        }
        writeTools(c, out);
        Json.putIfSet(out, "max_output_tokens", c.maxTokens());
        Json.putIfSet(out, "temperature", c.temperature());
        Json.putIfSet(out, "top_p", c.topP());
        if (c.reasoning() != null && !c.reasoning().off()) {
            out.putObject("reasoning").put("effort", ReasoningLevels.effortOf(c.reasoning())).put("summary", "auto");
            out.putArray("include").add("reasoning.encrypted_content");
        }
        if (c.responseFormat() != null) {
            OpenAiShapes.writeFormat(c.responseFormat(), out.putObject("text").putObject("format"), null);
        }
        Json.putIfSet(out, "user", c.user());
        if (!c.metadata().isEmpty()) {
            ObjectNode metadata = out.putObject("metadata");
            c.metadata().forEach(metadata::put);
        }
        out.put("store", false);
        if (c.stream()) {
            out.put("stream", true);
        }
        return out;
    }

    private static void writeUser(List<Part> parts, ArrayNode input) {
        ArrayNode message = null;
        for (Part part : parts) {
            if (part instanceof Part.ToolResult result) {
                ObjectNode output = input.addObject().put("type", "function_call_output")
                        .put("call_id", result.callId());
                boolean textOnly = result.content().stream().allMatch(p -> p instanceof Part.Text);
                if (textOnly) {
                    StringBuilder text = new StringBuilder();
                    result.content().forEach(p -> text.append(((Part.Text) p).text()));
                    output.put("output", text.toString());
                } else {
                    writeInputParts(result.content(), output.putArray("output"));
                }
            } else {
                if (message == null) {
                    message = input.addObject().put("type", "message").put("role", "user").putArray("content");
                }
                writeInputParts(List.of(part), message);
            }
        }
    }

    private static void writeInputParts(List<Part> parts, ArrayNode content) {
        for (Part part : parts) {
            if (part instanceof Part.Text t) {
                content.addObject().put("type", "input_text").put("text", t.text());
            } else if (part instanceof Part.Image image) {
                // Responses requires detail; auto is its documented default
                content.addObject().put("type", "input_image").put("image_url", image.asUrl())
                        .put("detail", image.detail() == null ? "auto" : image.detail());
            }
        }
    }

    /** Items in the order the model made them; consecutive text and refusals share one message item. */
    private static void writeAssistant(List<Part> parts, ArrayNode input) {
        ArrayNode message = null;
        for (Part part : parts) {
            if (part instanceof Part.Text t) {
                message = message != null ? message : assistantMessage(input);
                message.addObject().put("type", "output_text").put("text", t.text());
            } else if (part instanceof Part.Refusal r) {
                message = message != null ? message : assistantMessage(input);
                message.addObject().put("type", "refusal").put("refusal", r.text());
            } else if (part instanceof Part.ToolCall call) {
                message = null;
                input.addObject().put("type", "function_call").put("call_id", call.id()).put("name", call.name())
                        .put("arguments", call.arguments());
            } else if (part instanceof Part.Thinking thinking && thinking.seal() != null
                    && thinking.seal().origin() == RESPONSES) {
                // Only OpenAI's own encrypted reasoning goes back to a Responses upstream.
                message = null;
                writeReasoning(thinking, thinking.seal().value(), input.addObject());
            }
        }
    }

    /** A reasoning item from its shown text and a seal value of the form {@code <item id>:<encrypted content>}. */
    static void writeReasoning(Part.Thinking thinking, String idAndContent, ObjectNode item) {
        int colon = idAndContent.indexOf(':');
        item.put("type", "reasoning").put("id", idAndContent.substring(0, colon));
        ArrayNode summary = item.putArray("summary");
        if (!thinking.text().isEmpty()) {
            summary.addObject().put("type", "summary_text").put("text", thinking.text());
        }
        item.put("encrypted_content", idAndContent.substring(colon + 1));
    }

    private static ArrayNode assistantMessage(ArrayNode input) {
        return input.addObject().put("type", "message").put("role", "assistant").putArray("content");
    }

    private static void writeTools(Conversation c, ObjectNode out) {
        if (c.tools().isEmpty()) {
            return;
        }
        ArrayNode tools = out.putArray("tools");
        for (ToolSpec spec : c.tools()) {
            ObjectNode tool = tools.addObject().put("type", "function").put("name", spec.name());
            Json.putIfSet(tool, "description", spec.description());
            tool.set("parameters", spec.schema() == null ? ChatRequests.emptySchema() : spec.schema());
            // Responses makes a function strict unless told otherwise, which needs a schema written for it.
            tool.put("strict", Boolean.TRUE.equals(spec.strict()));
        }
        OpenAiShapes.writeToolChoice(c.toolChoice(), false, out);
        Json.putIfSet(out, "parallel_tool_calls", c.parallelToolCalls());
    }
}
