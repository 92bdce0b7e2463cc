package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.bridge.Conversation.ResponseFormat;
import dev.detour.bridge.Conversation.ToolChoice;
import dev.detour.core.account.EndpointFamily;

/**
 * What Chat Completions and Responses share but nest differently: the tool choice (a function's name
 * under {@code function} in Chat, beside {@code type} in Responses) and the structured-output format
 * (its schema under {@code json_schema} in Chat's {@code response_format}, beside {@code type} in
 * Responses' {@code text.format}).
 */
final class OpenAiShapes {
    private OpenAiShapes() {
    }

    static ToolChoice readToolChoice(JsonNode choice, EndpointFamily client) throws BridgeRefusal {
        if (choice == null || choice.isNull()) {
            return null;
        }
        if (choice.isTextual()) {
            return switch (choice.asText()) {
                case "none" -> new ToolChoice(ToolChoice.Mode.NONE, null);
                case "required" -> new ToolChoice(ToolChoice.Mode.ANY, null);
                default -> new ToolChoice(ToolChoice.Mode.AUTO, null);
            };
        }
        if ("function".equals(Json.text(choice, "type"))) {
            String name = Json.text(choice.path("function"), "name");
            return new ToolChoice(ToolChoice.Mode.TOOL, name != null ? name : Json.text(choice, "name"));
        }
        throw BridgeRefusal.onlyIn(client, "tool_choice", "A tool_choice of type " + Json.text(choice, "type"));
    }

    /** {@code nested}: Chat's {@code {"type":"function","function":{"name":…}}}, else Responses' flat form. */
    static void writeToolChoice(ToolChoice choice, boolean nested, ObjectNode out) {
        if (choice == null) {
            return;
        }
        switch (choice.mode()) {
            case AUTO -> out.put("tool_choice", "auto");
            case NONE -> out.put("tool_choice", "none");
            case ANY -> out.put("tool_choice", "required");
            case TOOL -> {
                ObjectNode function = out.putObject("tool_choice").put("type", "function");
                (nested ? function.putObject("function") : function).put("name", choice.name());
            }
        }
    }

    /** A format whose name, schema and strict flag sit in {@code schemaHolder}; null for plain text. */
    static ResponseFormat readFormat(JsonNode format, JsonNode schemaHolder) {
        String type = Json.text(format, "type");
        if (type == null || type.equals("text")) {
            return null;
        }
        return new ResponseFormat(type, Json.text(schemaHolder, "name"), schemaHolder.get("schema"),
                Json.bool(schemaHolder, "strict"));
    }

    /** Writes the type into {@code format} and, for a schema, name, schema and strict into the holder it names. */
    static void writeFormat(ResponseFormat responseFormat, ObjectNode format, String schemaField) {
        format.put("type", responseFormat.type());
        if (responseFormat.schema() != null) {
            ObjectNode holder = schemaField == null ? format : format.putObject(schemaField);
            holder.put("name", responseFormat.name() == null ? "response" : responseFormat.name());
            holder.set("schema", responseFormat.schema());
            Json.putIfSet(holder, "strict", responseFormat.strict());
        }
    }
}
