package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.core.ValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Typed reads of one JSON object's members: absent → null (keep / default); present with the
 * wrong type (or null where null means nothing) → 422 with the field's validation code.
 * Unknown members are never looked at, so they are ignored.
 */
final class JsonFields {
    private final JsonNode object;
    private final String prefix;

    JsonFields(JsonNode object, String prefix) {
        this.object = object;
        this.prefix = prefix;
    }

    boolean has(String name) {
        return object.has(name);
    }

    JsonNode node(String name) {
        return object.get(name);
    }

    String text(String name, String code) {
        JsonNode n = object.get(name);
        if (n == null) {
            return null;
        }
        if (!n.isTextual()) {
            throw wrong(code, name, "a string");
        }
        return n.textValue();
    }

    Integer integer(String name, String code) {
        JsonNode n = object.get(name);
        if (n == null) {
            return null;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
            throw wrong(code, name, "a whole number");
        }
        return n.intValue();
    }

    Long longValue(String name, String code) {
        JsonNode n = object.get(name);
        if (n == null) {
            return null;
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            throw wrong(code, name, "a whole number");
        }
        return n.longValue();
    }

    Boolean bool(String name, String code) {
        JsonNode n = object.get(name);
        if (n == null) {
            return null;
        }
        if (!n.isBoolean()) {
            throw wrong(code, name, "true or false");
        }
        return n.booleanValue();
    }

    /** For clearable fields: null = absent, empty = explicit JSON null. */
    Optional<Long> nullableLong(String name, String code) {
        if (!object.has(name)) {
            return null;
        }
        return object.get(name).isNull() ? Optional.empty() : Optional.of(longValue(name, code));
    }

    Optional<String> nullableText(String name, String code) {
        if (!object.has(name)) {
            return null;
        }
        return object.get(name).isNull() ? Optional.empty() : Optional.of(text(name, code));
    }

    JsonFields object(String name, String code) {
        JsonNode n = object.get(name);
        if (n == null) {
            return null;
        }
        if (!n.isObject()) {
            throw wrong(code, name, "an object");
        }
        return new JsonFields(n, field(name) + ".");
    }

    List<JsonNode> array(String name, String code) {
        JsonNode n = object.get(name);
        if (n == null) {
            return null;
        }
        if (!n.isArray()) {
            throw wrong(code, name, "a list");
        }
        List<JsonNode> items = new ArrayList<>();
        n.forEach(items::add);
        return items;
    }

    List<String> texts(String name, String code) {
        List<JsonNode> items = array(name, code);
        if (items == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : items) {
            if (!item.isTextual()) {
                throw wrong(code, name, "a list of strings");
            }
            out.add(item.textValue());
        }
        return out;
    }

    List<Integer> integers(String name, String code) {
        List<JsonNode> items = array(name, code);
        if (items == null) {
            return null;
        }
        List<Integer> out = new ArrayList<>();
        for (JsonNode item : items) {
            if (!item.isIntegralNumber() || !item.canConvertToInt()) {
                throw wrong(code, name, "a list of whole numbers");
            }
            out.add(item.intValue());
        }
        return out;
    }

    String field(String name) {
        return prefix + name;
    }

    ValidationException wrong(String code, String name, String expected) {
        return new ValidationException(code, field(name), field(name) + " must be " + expected);
    }
}
