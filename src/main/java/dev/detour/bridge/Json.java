package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small readers and writers over Jackson trees that the codecs share; absent and null read alike. */
final class Json {
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }

    static boolean has(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && !value.isNull();
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isTextual() ? value.asText() : null;
    }

    static Integer integer(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.canConvertToInt() ? value.asInt() : null;
    }

    static Double number(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isNumber() ? value.asDouble() : null;
    }

    static Boolean bool(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isBoolean() ? value.asBoolean() : null;
    }

    /** A field that is one string or an array of strings (Chat's {@code stop}), as a list. */
    static List<String> strings(JsonNode node, String field) {
        JsonNode value = node.path(field);
        List<String> out = new ArrayList<>();
        if (value.isTextual()) {
            out.add(value.asText());
        }
        for (JsonNode item : value.isArray() ? value : NODES.arrayNode()) {
            if (item.isTextual()) {
                out.add(item.asText());
            }
        }
        return out;
    }

    /** An object of string values (metadata), other values left out. */
    static Map<String, String> stringMap(JsonNode node, String field) {
        Map<String, String> out = new LinkedHashMap<>();
        node.path(field).properties().forEach(e -> {
            if (e.getValue().isTextual()) {
                out.put(e.getKey(), e.getValue().asText());
            }
        });
        return out;
    }

    static void putIfSet(ObjectNode out, String field, Object value) {
        if (value instanceof Integer i) {
            out.put(field, i);
        } else if (value instanceof Double d) {
            out.put(field, d);
        } else if (value instanceof Boolean b) {
            out.put(field, b);
        } else if (value instanceof String s) {
            out.put(field, s);
        }
    }

    /** A JSON text (tool call arguments) as a tree; null when it is not valid JSON. */
    static JsonNode parse(String text) {
        try {
            return text == null ? null : MAPPER.readTree(text);
        } catch (java.io.IOException invalid) {
            return null;
        }
    }

    /** A tree as compact JSON text (tool call arguments go out as a string in OpenAI's protocols). */
    static String write(JsonNode node) {
        return node == null || node.isMissingNode() ? "{}" : node.toString();
    }
}
