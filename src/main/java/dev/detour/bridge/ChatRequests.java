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

/** B-2: a Chat Completions request read into a {@link Conversation} and written from one. */
final class ChatRequests {
    private static final EndpointFamily CHAT = EndpointFamily.CHAT_COMPLETIONS;

    private ChatRequests() {
    }

    static Conversation read(JsonNode body) throws BridgeRefusal {
        refuseChatOnly(body);
        List<String> system = new ArrayList<>();
        Turns turns = new Turns();
        for (JsonNode message : body.path("messages")) {
            readMessage(message, system, turns);
        }
        List<ToolSpec> tools = new ArrayList<>();
        for (JsonNode tool : body.path("tools")) {
            if (!"function".equals(Json.text(tool, "type"))) {
                throw BridgeRefusal.onlyIn(CHAT, "custom_tool", "A tool of type " + Json.text(tool, "type"));
            }
            JsonNode function = tool.path("function");
            tools.add(new ToolSpec(Json.text(function, "name"), Json.text(function, "description"),
                    function.get("parameters"), Json.bool(function, "strict")));
        }
        Integer maxTokens = Json.has(body, "max_completion_tokens") ? Json.integer(body, "max_completion_tokens")
                : Json.integer(body, "max_tokens");
        String effort = Json.text(body, "reasoning_effort");
        Reasoning reasoning = effort == null ? null : new Reasoning(effort, null, "none".equals(effort));
        String user = Json.text(body, "user");
        JsonNode format = body.path("response_format");
        return new Conversation(system, turns.build(), tools,
                OpenAiShapes.readToolChoice(body.get("tool_choice"), CHAT), Json.bool(body, "parallel_tool_calls"),
                maxTokens, Json.number(body, "temperature"), Json.number(body, "top_p"), null,
                Json.strings(body, "stop"), Boolean.TRUE.equals(Json.bool(body, "stream")), reasoning,
                OpenAiShapes.readFormat(format, format.path("json_schema")), user, Json.stringMap(body, "metadata"));
    }

    /** Chat features neither Messages nor Responses has; refused only when set to something but the default. */
    private static void refuseChatOnly(JsonNode body) throws BridgeRefusal {
        if (body.path("n").asInt(1) > 1) {
            throw BridgeRefusal.onlyIn(CHAT, "n", "Several choices (n > 1)");
        }
        if (body.path("logprobs").asBoolean(false) || Json.has(body, "top_logprobs")) {
            throw BridgeRefusal.onlyIn(CHAT, "logprobs", "Log probabilities");
        }
        if (body.path("frequency_penalty").asDouble(0) != 0 || body.path("presence_penalty").asDouble(0) != 0) {
            throw BridgeRefusal.onlyIn(CHAT, "penalty", "A frequency or presence penalty");
        }
        if (!body.path("logit_bias").isEmpty()) {
            throw BridgeRefusal.onlyIn(CHAT, "logit_bias", "A logit bias");
        }
        if (Json.has(body, "audio") || Json.strings(body, "modalities").contains("audio")) {
            throw BridgeRefusal.onlyIn(CHAT, "audio", "Audio output");
        }
        if (Json.has(body, "prediction")) {
            throw BridgeRefusal.onlyIn(CHAT, "prediction", "A predicted output");
        }
        if (Json.has(body, "web_search_options")) {
            throw BridgeRefusal.onlyIn(CHAT, "builtin_tool", "OpenAI's built-in web search");
        }
        if (Json.has(body, "functions") || Json.has(body, "function_call")) {
            throw BridgeRefusal.onlyIn(CHAT, "legacy_functions", "The legacy functions/function_call form (use tools)");
        }
    }

    private static void readMessage(JsonNode message, List<String> system, Turns turns) throws BridgeRefusal {
        String role = Json.text(message, "role");
        switch (role == null ? "" : role) {
            case "system", "developer" -> system.add(joinedText(message.get("content")));
            case "user" -> turns.addAll(Role.USER, readContent(message.get("content")));
            case "assistant" -> readAssistant(message, turns);
            case "tool" -> turns.add(Role.USER, new Part.ToolResult(Json.text(message, "tool_call_id"),
                    readContent(message.get("content")), false));
            case "function" -> throw BridgeRefusal.onlyIn(CHAT, "legacy_functions", "A message of role function");
            default -> throw BridgeRefusal.onlyIn(CHAT, "message_role", "A message of role " + role);
        }
    }

    private static void readAssistant(JsonNode message, Turns turns) throws BridgeRefusal {
        turns.addAll(Role.ASSISTANT, readContent(message.get("content")));
        String refusal = Json.text(message, "refusal");
        if (refusal != null) {
            turns.add(Role.ASSISTANT, new Part.Refusal(refusal));
        }
        for (JsonNode call : message.path("tool_calls")) {
            JsonNode function = call.path("function");
            turns.add(Role.ASSISTANT, new Part.ToolCall(Json.text(call, "id"), Json.text(function, "name"),
                    function.path("arguments").asText("{}")));
        }
    }

    /** Content that is a string or an array of parts: text, images and (assistant) refusals. */
    static List<Part> readContent(JsonNode content) throws BridgeRefusal {
        return Content.read(content, ChatRequests::readPart);
    }

    private static Part readPart(JsonNode part) throws BridgeRefusal {
        String type = Json.text(part, "type");
        return switch (type == null ? "" : type) {
            case "text" -> new Part.Text(part.path("text").asText());
            case "image_url" -> Part.Image.of(part.path("image_url").path("url").asText(),
                    Json.text(part.path("image_url"), "detail"));
            case "refusal" -> new Part.Refusal(part.path("refusal").asText());
            case "input_audio" -> throw BridgeRefusal.onlyIn(CHAT, "audio", "Audio input");
            case "file" -> throw BridgeRefusal.onlyIn(CHAT, "file", "A file content part");
            default -> throw BridgeRefusal.onlyIn(CHAT, "content_part", "A content part of type " + type);
        };
    }

    private static String joinedText(JsonNode content) throws BridgeRefusal {
        StringBuilder text = new StringBuilder();
        for (Part part : readContent(content)) {
            if (!(part instanceof Part.Text t)) {
                throw BridgeRefusal.onlyIn(CHAT, "system_image", "An image in a system message");
            }
            text.append(text.isEmpty() ? "" : "\n").append(t.text());
        }
        return text.toString();
    }

    static ObjectNode write(Conversation c, String model) throws BridgeRefusal {
        if (c.topK() != null) {
            throw BridgeRefusal.notIn(CHAT, "top_k", "top_k");
        }
        ObjectNode out = Json.object();
        out.put("model", model);
        ArrayNode messages = out.putArray("messages");
        c.system().forEach(s -> messages.addObject().put("role", "system").put("content", s));
        for (Turn turn : c.turns()) {
            if (turn.role() == Role.USER) {
                writeUser(turn.parts(), messages);
            } else if (turn.parts().stream().anyMatch(p -> !(p instanceof Part.Thinking))) {
                writeAssistant(turn.parts(), messages.addObject()); // a turn of reasoning only says nothing here
            }
        }
        writeTools(c, out);
        boolean reasons = c.reasoning() != null && !c.reasoning().off();
        // Reasoning models take only max_completion_tokens; older relays know only max_tokens.
        Json.putIfSet(out, reasons ? "max_completion_tokens" : "max_tokens", c.maxTokens());
        Json.putIfSet(out, "temperature", c.temperature());
        Json.putIfSet(out, "top_p", c.topP());
        if (!c.stop().isEmpty()) {
            ArrayNode stop = out.putArray("stop");
            c.stop().forEach(stop::add);
        }
        if (reasons) {
            out.put("reasoning_effort", ReasoningLevels.effortOf(c.reasoning()));
        }
        if (c.responseFormat() != null) {
            OpenAiShapes.writeFormat(c.responseFormat(), out.putObject("response_format"), "json_schema");
        }
        Json.putIfSet(out, "user", c.user());
        if (c.stream()) {
            out.put("stream", true);
            out.putObject("stream_options").put("include_usage", true); // else a Chat stream reports no usage
        }
        return out;
    }

    private static void writeUser(List<Part> parts, ArrayNode messages) throws BridgeRefusal {
        List<Part> rest = new ArrayList<>();
        for (Part part : parts) {
            if (part instanceof Part.ToolResult result) {
                ObjectNode tool = messages.addObject().put("role", "tool").put("tool_call_id", result.callId());
                tool.set("content", writeContent(result.content(), "tool_result_image", "An image in a tool result"));
            } else {
                rest.add(part);
            }
        }
        if (!rest.isEmpty()) {
            messages.addObject().put("role", "user").set("content", writeContent(rest, null, null));
        }
    }

    /** A lone text as a string, else an array of text and image parts; images refused where Chat has none. */
    private static JsonNode writeContent(List<Part> parts, String imageFeature, String imageWhat)
            throws BridgeRefusal {
        if (parts.size() == 1 && parts.get(0) instanceof Part.Text t) {
            return Json.NODES.textNode(t.text());
        }
        ArrayNode content = Json.NODES.arrayNode();
        for (Part part : parts) {
            if (part instanceof Part.Text t) {
                content.addObject().put("type", "text").put("text", t.text());
            } else if (part instanceof Part.Image image) {
                if (imageFeature != null) {
                    throw BridgeRefusal.notIn(CHAT, imageFeature, imageWhat);
                }
                ObjectNode url = content.addObject().put("type", "image_url").putObject("image_url");
                url.put("url", image.asUrl());
                Json.putIfSet(url, "detail", image.detail());
            }
        }
        return content.isEmpty() ? Json.NODES.textNode("") : content;
    }

    /** An assistant message: its text, refusal and tool calls (an answer adds its reasoning apart). */
    static void writeAssistant(List<Part> parts, ObjectNode message) {
        message.put("role", "assistant");
        StringBuilder text = new StringBuilder();
        StringBuilder refusal = new StringBuilder();
        ArrayNode calls = Json.NODES.arrayNode();
        for (Part part : parts) {
            if (part instanceof Part.Text t) {
                text.append(t.text());
            } else if (part instanceof Part.Refusal r) {
                refusal.append(r.text());
            } else if (part instanceof Part.ToolCall call) {
                ObjectNode c = calls.addObject().put("id", call.id()).put("type", "function");
                c.putObject("function").put("name", call.name()).put("arguments", call.arguments());
            }
            // Thinking: Chat has no field to send reasoning back in, and nothing there could verify it.
        }
        message.put("content", text.isEmpty() ? null : text.toString());
        if (!refusal.isEmpty()) {
            message.put("refusal", refusal.toString());
        }
        if (!calls.isEmpty()) {
            message.set("tool_calls", calls);
        }
    }

    /** OpenAI refuses tool_choice and parallel_tool_calls without tools, so they go only with tools. */
    private static void writeTools(Conversation c, ObjectNode out) {
        if (c.tools().isEmpty()) {
            return;
        }
        ArrayNode tools = out.putArray("tools");
        for (ToolSpec spec : c.tools()) {
            ObjectNode function = tools.addObject().put("type", "function").putObject("function");
            function.put("name", spec.name());
            Json.putIfSet(function, "description", spec.description());
            function.set("parameters", spec.schema() == null ? emptySchema() : spec.schema());
            Json.putIfSet(function, "strict", spec.strict());
        }
        OpenAiShapes.writeToolChoice(c.toolChoice(), true, out);
        Json.putIfSet(out, "parallel_tool_calls", c.parallelToolCalls());
    }

    static ObjectNode emptySchema() {
        ObjectNode schema = Json.object().put("type", "object");
        schema.putObject("properties");
        return schema;
    }
}
