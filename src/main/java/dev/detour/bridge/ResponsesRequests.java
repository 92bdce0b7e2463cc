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
import java.util.Arrays;
import java.util.HashSet;
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
        return read(body, toolNames(body));
    }

    /**
     * B-6: the upstream names of the request's tools ({@link ToolNames}). What only OpenAI can run (its
     * built-in tools: web search, file search, computer use, …) is refused: nothing here could run it.
     */
    static ToolNames toolNames(JsonNode body) throws BridgeRefusal {
        List<ToolNames.Tool> declared = new ArrayList<>();
        for (Declared tool : declaredTools(body)) {
            String type = Json.text(tool.tool(), "type");
            if (!"function".equals(type) && !"custom".equals(type)) {
                throw BridgeRefusal.onlyIn(RESPONSES, "builtin_tool", "OpenAI's built-in tool " + type);
            }
            declared.add(new ToolNames.Tool(tool.namespace(), Json.text(tool.tool(), "name"), "custom".equals(type)));
        }
        return new ToolNames(declared);
    }

    /** A declared tool and the namespace it is in (both null at the top level). */
    private record Declared(String namespace, String namespaceDescription, JsonNode tool) {
    }

    /**
     * Every tool the request offers: {@code tools}, then those of each {@code additional_tools} input item —
     * where Codex declares all of its tools, again on every turn — each (namespace, name) once, a namespace
     * opened into its tools. Chat and Messages have one tool list for the whole request, so a tool made
     * available at some item is offered for all of it.
     */
    private static List<Declared> declaredTools(JsonNode body) {
        List<Declared> out = new ArrayList<>();
        Set<List<String>> seen = new HashSet<>();
        List<JsonNode> lists = new ArrayList<>();
        lists.add(body.path("tools"));
        for (JsonNode item : body.path("input")) {
            if ("additional_tools".equals(Json.text(item, "type"))) {
                lists.add(item.path("tools"));
            }
        }
        for (JsonNode list : lists) {
            for (JsonNode tool : list) {
                boolean namespace = "namespace".equals(Json.text(tool, "type"));
                for (JsonNode inner : namespace ? tool.path("tools") : Json.NODES.arrayNode().add(tool)) {
                    String ns = namespace ? Json.text(tool, "name") : null;
                    if (seen.add(Arrays.asList(ns, Json.text(inner, "name")))) {
                        out.add(new Declared(ns, namespace ? Json.text(tool, "description") : null, inner));
                    }
                }
            }
        }
        return out;
    }

    static Conversation read(JsonNode body, ToolNames names) throws BridgeRefusal {
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
            readItem(item, system, turns, names);
        }
        List<ToolSpec> tools = new ArrayList<>();
        for (Declared tool : declaredTools(body)) {
            tools.add(spec(tool.namespace(), tool.namespaceDescription(), tool.tool(), names));
        }
        JsonNode reasoningNode = body.path("reasoning");
        String effort = Json.text(reasoningNode, "effort");
        Reasoning reasoning = effort == null ? null : new Reasoning(effort, null, "none".equals(effort));
        String user = Json.text(body, "user") != null ? Json.text(body, "user") : Json.text(body, "safety_identifier");
        return new Conversation(system, turns.build(), tools,
                toolChoice(body.get("tool_choice"), names), Json.bool(body, "parallel_tool_calls"),
                Json.integer(body, "max_output_tokens"), Json.number(body, "temperature"), Json.number(body, "top_p"),
                null, List.of(),
                Boolean.TRUE.equals(Json.bool(body, "stream")), reasoning, textFormat(body),
                user, Json.stringMap(body, "metadata"));
    }

    /**
     * B-6: a declared tool as the function the upstream is offered: its upstream name, the namespace's
     * description before its own (what the namespace is for is part of what the model is told), and for a
     * custom tool the one string parameter that carries its text.
     */
    private static ToolSpec spec(String namespace, String namespaceDescription, JsonNode tool, ToolNames names) {
        String name = names.upstream(namespace, Json.text(tool, "name"));
        String description = Json.text(tool, "description");
        if (namespaceDescription != null && !namespaceDescription.isBlank()) {
            description = namespaceDescription + (description == null ? "" : "\n\n" + description);
        }
        if ("custom".equals(Json.text(tool, "type"))) {
            return new ToolSpec(name, description, ToolNames.customSchema(tool.path("format")), null);
        }
        return new ToolSpec(name, description, tool.get("parameters"), Json.bool(tool, "strict"));
    }

    /** A forced tool (function or custom, possibly in a namespace) is forced under its upstream name. */
    private static Conversation.ToolChoice toolChoice(JsonNode choice, ToolNames names) throws BridgeRefusal {
        String type = choice == null ? null : Json.text(choice, "type");
        if ("function".equals(type) || "custom".equals(type)) {
            return new Conversation.ToolChoice(Conversation.ToolChoice.Mode.TOOL,
                    names.upstream(Json.text(choice, "namespace"), Json.text(choice, "name")));
        }
        return OpenAiShapes.readToolChoice(choice, RESPONSES);
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

    private static void readItem(JsonNode item, List<String> system, Turns turns, ToolNames names)
            throws BridgeRefusal {
        String type = Json.text(item, "type");
        switch (type == null ? "message" : type) {
            case "message" -> readMessage(item, system, turns);
            case "function_call" -> turns.add(Role.ASSISTANT, new Part.ToolCall(Json.text(item, "call_id"),
                    names.upstream(Json.text(item, "namespace"), Json.text(item, "name")),
                    item.path("arguments").asText("{}")));
            case "custom_tool_call" -> turns.add(Role.ASSISTANT, new Part.ToolCall(Json.text(item, "call_id"),
                    names.upstream(Json.text(item, "namespace"), Json.text(item, "name")),
                    ToolNames.argumentsOf(Json.text(item, "input"))));
            case "function_call_output", "custom_tool_call_output" -> turns.add(Role.USER,
                    new Part.ToolResult(Json.text(item, "call_id"), readContent(item.get("output")), false));
            case "reasoning" -> turns.add(Role.ASSISTANT, readReasoning(item));
            case "additional_tools" -> {
                // B-6: its tools are among the request's tools (declaredTools); the item says nothing else
            }
            case "item_reference" -> throw BridgeRefusal.onlyIn(RESPONSES, "previous_response_id",
                    "An item_reference (an item kept upstream)");
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
