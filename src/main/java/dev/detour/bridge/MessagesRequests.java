package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.bridge.Conversation.Reasoning;
import dev.detour.bridge.Conversation.Role;
import dev.detour.bridge.Conversation.ToolChoice;
import dev.detour.bridge.Conversation.ToolSpec;
import dev.detour.bridge.Conversation.Turn;
import dev.detour.core.account.EndpointFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * B-2: an Anthropic Messages request read into a {@link Conversation} and written from one.
 * {@code cache_control} marks are not carried to OpenAI: its prompt caching needs no marks.
 */
final class MessagesRequests {
    private static final EndpointFamily MESSAGES = EndpointFamily.MESSAGES;

    private MessagesRequests() {
    }

    static Conversation read(JsonNode body) throws BridgeRefusal {
        refuseMessagesOnly(body);
        List<String> system = new ArrayList<>();
        JsonNode systemNode = body.path("system");
        if (systemNode.isTextual()) {
            system.add(systemNode.asText());
        }
        for (JsonNode block : systemNode.isArray() ? systemNode : Json.NODES.arrayNode()) {
            system.add(block.path("text").asText());
        }
        Turns turns = new Turns();
        for (JsonNode message : body.path("messages")) {
            Role role = "assistant".equals(Json.text(message, "role")) ? Role.ASSISTANT : Role.USER;
            turns.addAll(role, readBlocks(message.get("content")));
        }
        List<ToolSpec> tools = new ArrayList<>();
        for (JsonNode tool : body.path("tools")) {
            String type = Json.text(tool, "type");
            if (type != null && !type.equals("custom")) { // web_search_…, bash_…, text_editor_…, computer_…
                throw BridgeRefusal.onlyIn(MESSAGES, "builtin_tool", "Anthropic's server tool " + type);
            }
            tools.add(new ToolSpec(Json.text(tool, "name"), Json.text(tool, "description"), tool.get("input_schema"),
                    Json.bool(tool, "strict")));
        }
        JsonNode choice = body.path("tool_choice");
        Boolean parallel = choice.path("disable_parallel_tool_use").asBoolean(false) ? Boolean.FALSE : null;
        String userId = Json.text(body.path("metadata"), "user_id");
        return new Conversation(system, turns.build(), tools, readToolChoice(choice), parallel,
                Json.integer(body, "max_tokens"), Json.number(body, "temperature"), Json.number(body, "top_p"),
                Json.integer(body, "top_k"), Json.strings(body, "stop_sequences"),
                Boolean.TRUE.equals(Json.bool(body, "stream")), readThinking(body), null, userId, Map.of());
    }

    private static void refuseMessagesOnly(JsonNode body) throws BridgeRefusal {
        if (Json.has(body, "mcp_servers")) {
            throw BridgeRefusal.onlyIn(MESSAGES, "mcp_servers", "Remote MCP servers (mcp_servers)");
        }
        if (Json.has(body, "container")) {
            throw BridgeRefusal.onlyIn(MESSAGES, "container", "A code execution container");
        }
    }

    /**
     * {@code enabled} with a budget; {@code adaptive} lets the model choose, so it reads as the effort in
     * {@code output_config.effort} (medium when absent); {@code disabled} is an explicit off.
     */
    private static Reasoning readThinking(JsonNode body) {
        JsonNode thinking = body.path("thinking");
        return switch (thinking.path("type").asText("")) {
            case "enabled" -> new Reasoning(null, thinking.path("budget_tokens").asInt(ReasoningLevels.MIN_BUDGET),
                    false);
            case "adaptive" -> new Reasoning(body.path("output_config").path("effort").asText("medium"), null, false);
            case "disabled" -> new Reasoning(null, null, true);
            default -> null;
        };
    }

    static List<Part> readBlocks(JsonNode content) throws BridgeRefusal {
        return Content.read(content, MessagesRequests::readBlock);
    }

    private static Part readBlock(JsonNode block) throws BridgeRefusal {
        String type = Json.text(block, "type");
        return switch (type == null ? "" : type) {
            case "text" -> new Part.Text(block.path("text").asText());
            case "image" -> readImage(block.path("source"));
            case "tool_use" -> new Part.ToolCall(Json.text(block, "id"), Json.text(block, "name"),
                    Json.write(block.get("input")));
            case "tool_result" -> new Part.ToolResult(Json.text(block, "tool_use_id"),
                    readBlocks(block.get("content")), block.path("is_error").asBoolean(false));
            case "thinking" -> new Part.Thinking(block.path("thinking").asText(),
                    BridgedReasoning.read(MESSAGES, Json.text(block, "signature"), false));
            case "redacted_thinking" -> new Part.Thinking("",
                    BridgedReasoning.read(MESSAGES, Json.text(block, "data"), true));
            case "document" -> throw BridgeRefusal.onlyIn(MESSAGES, "file", "A document block");
            case "server_tool_use", "web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result",
                    "mcp_tool_use", "mcp_tool_result", "container_upload" ->
                    throw BridgeRefusal.onlyIn(MESSAGES, "builtin_tool", "A " + type + " block");
            default -> throw BridgeRefusal.onlyIn(MESSAGES, "content_part", "A content block of type " + type);
        };
    }

    private static Part readImage(JsonNode source) throws BridgeRefusal {
        return switch (source.path("type").asText("")) {
            case "base64" -> new Part.Image(Json.text(source, "media_type"), Json.text(source, "data"), null, null);
            case "url" -> new Part.Image(null, null, Json.text(source, "url"), null);
            default -> throw BridgeRefusal.onlyIn(MESSAGES, "file", "An image from the Files API");
        };
    }

    private static ToolChoice readToolChoice(JsonNode choice) {
        return switch (choice.path("type").asText("")) {
            case "auto" -> new ToolChoice(ToolChoice.Mode.AUTO, null);
            case "any" -> new ToolChoice(ToolChoice.Mode.ANY, null);
            case "none" -> new ToolChoice(ToolChoice.Mode.NONE, null);
            case "tool" -> new ToolChoice(ToolChoice.Mode.TOOL, Json.text(choice, "name"));
            default -> null;
        };
    }

    static ObjectNode write(Conversation c, String model) throws BridgeRefusal {
        if (c.responseFormat() != null) {
            throw BridgeRefusal.notIn(MESSAGES, "response_format", "A response_format (structured output)");
        }
        ObjectNode out = Json.object();
        out.put("model", model);
        int budget = c.reasoning() == null || c.reasoning().off() ? 0 : ReasoningLevels.budgetOf(c.reasoning());
        // Messages requires max_tokens, and a thinking budget must fit below it.
        int maxTokens = c.maxTokens() != null ? c.maxTokens() : ReasoningLevels.DEFAULT_MAX_TOKENS + budget;
        out.put("max_tokens", maxTokens);
        if (!c.system().isEmpty()) {
            ArrayNode system = out.putArray("system");
            c.system().forEach(s -> system.addObject().put("type", "text").put("text", s));
        }
        ArrayNode messages = out.putArray("messages");
        for (Turn turn : c.turns()) {
            ArrayNode content = Json.NODES.arrayNode();
            for (Part part : turn.parts()) {
                writeBlock(part, content);
            }
            if (!content.isEmpty()) {
                String role = turn.role() == Role.USER ? "user" : "assistant";
                messages.addObject().put("role", role).set("content", content);
            }
        }
        writeTools(c, out);
        Json.putIfSet(out, "temperature", c.temperature());
        Json.putIfSet(out, "top_p", c.topP());
        Json.putIfSet(out, "top_k", c.topK());
        if (!c.stop().isEmpty()) {
            ArrayNode stop = out.putArray("stop_sequences");
            c.stop().forEach(stop::add);
        }
        writeThinking(c.reasoning(), budget, maxTokens, thinkingCanContinue(messages), ReasoningLevels.adaptiveOnly(model),
                out);
        if (c.user() != null) {
            out.putObject("metadata").put("user_id", c.user());
        }
        if (c.stream()) {
            out.put("stream", true);
        }
        return out;
    }

    /** {@code adaptive}: the model takes only adaptive thinking, steered by an effort level, and no budget. */
    private static void writeThinking(Reasoning reasoning, int budget, int maxTokens, boolean canContinue,
            boolean adaptive, ObjectNode out) {
        if (reasoning == null) {
            return;
        }
        if (adaptive) { // off: nothing sent (such a model refuses a budget, and "disabled" is not promised either)
            if (!reasoning.off() && canContinue) {
                out.putObject("thinking").put("type", "adaptive");
                out.putObject("output_config").put("effort", ReasoningLevels.adaptiveEffort(reasoning));
            }
            return;
        }
        int fitted = ReasoningLevels.fit(budget, maxTokens);
        if (reasoning.off() || fitted == 0 || !canContinue) {
            out.putObject("thinking").put("type", "disabled");
        } else {
            out.putObject("thinking").put("type", "enabled").put("budget_tokens", fitted);
        }
    }

    /**
     * With thinking on, Anthropic requires the last assistant turn, when it calls a tool, to begin with
     * its signed thinking block. A history from another protocol has none (its reasoning was left out,
     * or never existed), so thinking stays off for such a request rather than being refused by Anthropic.
     */
    static boolean thinkingCanContinue(ArrayNode messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode message = messages.get(i);
            if ("assistant".equals(Json.text(message, "role"))) {
                boolean callsTool = false;
                for (JsonNode block : message.path("content")) {
                    callsTool |= "tool_use".equals(Json.text(block, "type"));
                }
                String first = message.path("content").path(0).path("type").asText();
                return !callsTool || first.equals("thinking") || first.equals("redacted_thinking");
            }
        }
        return true;
    }

    static void writeBlock(Part part, ArrayNode content) throws BridgeRefusal {
        if (part instanceof Part.Text t) {
            content.addObject().put("type", "text").put("text", t.text());
        } else if (part instanceof Part.Refusal r) {
            content.addObject().put("type", "text").put("text", r.text());
        } else if (part instanceof Part.Image image) {
            writeImage(image, content.addObject());
        } else if (part instanceof Part.ToolCall call) {
            content.addObject().put("type", "tool_use").put("id", call.id()).put("name", call.name())
                    .set("input", input(call));
        } else if (part instanceof Part.ToolResult result) {
            ObjectNode block = content.addObject().put("type", "tool_result").put("tool_use_id", result.callId());
            ArrayNode inner = block.putArray("content");
            for (Part p : result.content()) {
                writeBlock(p, inner);
            }
            if (result.isError()) {
                block.put("is_error", true);
            }
        } else if (part instanceof Part.Thinking thinking && thinking.seal() != null
                && thinking.seal().origin() == MESSAGES) {
            // Only Anthropic's own seal goes back to Anthropic; reasoning of another origin is left out.
            if (thinking.seal().redacted()) {
                content.addObject().put("type", "redacted_thinking").put("data", thinking.seal().value());
            } else {
                content.addObject().put("type", "thinking").put("thinking", thinking.text())
                        .put("signature", thinking.seal().value());
            }
        }
    }

    private static void writeImage(Part.Image image, ObjectNode block) {
        block.put("type", "image");
        ObjectNode source = block.putObject("source");
        if (image.url() != null) {
            source.put("type", "url").put("url", image.url());
        } else {
            source.put("type", "base64").put("media_type", image.mediaType()).put("data", image.data());
        }
    }

    /** Messages takes a tool call's input as an object; arguments that are not one cannot be sent. */
    private static JsonNode input(Part.ToolCall call) throws BridgeRefusal {
        JsonNode input = Json.parse(call.arguments());
        if (input == null || !input.isObject()) {
            throw BridgeRefusal.notIn(MESSAGES, "tool_arguments", "A tool call whose arguments are not a JSON object");
        }
        return input;
    }

    private static void writeTools(Conversation c, ObjectNode out) {
        if (c.tools().isEmpty()) {
            return;
        }
        ArrayNode tools = out.putArray("tools");
        for (ToolSpec spec : c.tools()) {
            ObjectNode tool = tools.addObject().put("name", spec.name());
            Json.putIfSet(tool, "description", spec.description());
            tool.set("input_schema", spec.schema() == null ? ChatRequests.emptySchema() : spec.schema());
        }
        ObjectNode choice = Json.object();
        if (c.toolChoice() != null) {
            switch (c.toolChoice().mode()) {
                case AUTO -> choice.put("type", "auto");
                case NONE -> choice.put("type", "none");
                case ANY -> choice.put("type", "any");
                case TOOL -> choice.put("type", "tool").put("name", c.toolChoice().name());
            }
        }
        if (Boolean.FALSE.equals(c.parallelToolCalls()) && c.toolChoice() == null) {
            choice.put("type", "auto");
        }
        if (Boolean.FALSE.equals(c.parallelToolCalls()) && !"none".equals(choice.path("type").asText())) {
            choice.put("disable_parallel_tool_use", true);
        }
        if (!choice.isEmpty()) {
            out.set("tool_choice", choice);
        }
    }
}
