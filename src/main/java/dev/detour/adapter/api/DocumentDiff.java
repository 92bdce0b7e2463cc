package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.PoolTransfer;
import dev.detour.core.ValidationException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * W-2: what every section of a pool document shares when it is read against the pool: walking a section's
 * objects with their paths, comparing an object with the stored one field by field, and the diff's lines and
 * counts (create / update / unchanged, and skipped where a section leaves an object out).
 */
final class DocumentDiff {
    private DocumentDiff() {
    }

    interface ObjectAt {
        void accept(String path, String name, ObjectNode object);
    }

    /** Each object of a section with its path and name; a section that is not a list of objects is refused, names once each. */
    static void forEachObject(JsonNode doc, String section, ObjectAt work) {
        forEachObject(doc, section, (o, path) -> name(o, path, "name"), work);
    }

    /** As above, the object's name given by {@code identity} (a price's model, a block rule's scope and value). */
    static void forEachObject(JsonNode doc, String section, java.util.function.BiFunction<JsonNode, String, String> identity,
            ObjectAt work) {
        JsonNode items = doc.get(section);
        if (items == null) {
            return;
        }
        if (!items.isArray()) {
            throw new ValidationException("validation.import." + section, section, section + " must be a list");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            String path = section + "[" + i + "]";
            if (!items.get(i).isObject()) {
                throw new ValidationException("validation.import." + section, path, path + " must be an object");
            }
            String name = identity.apply(items.get(i), path);
            if (!seen.add(name)) {
                throw new ValidationException("validation.import." + section + ".name", path + ".name",
                        name + " appears twice in " + section);
            }
            work.accept(path, name, (ObjectNode) items.get(i));
        }
    }

    /** The object's text member {@code field} (its name), refused when missing or blank. */
    static String name(JsonNode o, String path, String field) {
        JsonNode name = o.get(field);
        if (name == null || !name.isTextual() || name.asText().isBlank()) {
            String section = path.replaceAll("\\[.*$", "");
            throw new ValidationException("validation.import." + section + "." + field, path + "." + field,
                    "every object in " + section + " needs its " + field);
        }
        return name.asText();
    }

    /** Fields of {@code wanted} whose values differ from {@code stored} (fields {@code stored} lacks are not compared). */
    static List<String> differing(JsonNode wanted, JsonNode stored) {
        List<String> fields = new ArrayList<>();
        for (Iterator<String> names = wanted.fieldNames(); names.hasNext();) {
            String name = names.next();
            if (stored.has(name) && !sameValue(wanted.get(name), stored.get(name))) {
                fields.add(name);
            }
        }
        return fields;
    }

    /** Numbers compare by value (1 and 1.0, int and long); everything else as JSON. */
    private static boolean sameValue(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.isObject() && b.isObject()) {
            return differing(a, b).isEmpty() && differing(b, a).isEmpty();
        }
        return a.equals(b);
    }

    /** The document as a reader sees it (a POJO member such as a null quota becomes plain JSON), so it compares. */
    static ObjectNode plain(ObjectNode o) {
        try {
            return (ObjectNode) Documents.JSON.readTree(o.toString());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A use case's input parsed from one object, its refusal pointed at the object's path. */
    static <T> T pointed(String path, String name, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (ValidationException e) {
            throw PoolTransfer.pointAt(path, name, e);
        }
    }

    /** Objects by their name, the first of a name kept. */
    static <T> Map<String, T> byName(List<T> objects, Function<T, String> name) {
        Map<String, T> out = new java.util.LinkedHashMap<>();
        objects.forEach(o -> out.putIfAbsent(name.apply(o), o));
        return out;
    }

    /** create / update / unchanged (/ skipped) counts of one section, and its lines in the diff. */
    static final class Tally {
        private final ArrayNode changes;
        private final String section;
        int create;
        int update;
        int unchanged;
        int skipped;

        Tally(ArrayNode changes, String section) {
            this.changes = changes;
            this.section = section;
        }

        /** {@code fields}: null for a new object. True when the object is to be written. */
        boolean note(String name, List<String> fields) {
            String action = fields == null ? "create" : fields.isEmpty() ? "unchanged" : "update";
            ObjectNode line = changes.addObject().put("section", section).put("name", name).put("action", action);
            if (fields != null && !fields.isEmpty()) {
                fields.forEach(line.putArray("fields")::add);
            }
            switch (action) {
                case "create" -> create++;
                case "update" -> update++;
                default -> unchanged++;
            }
            return !action.equals("unchanged");
        }

        /** An object the import leaves as it is, with the reason. */
        void skip(String name, String reason) {
            changes.addObject().put("section", section).put("name", name).put("action", "skipped").put("reason", reason);
            skipped++;
        }

        void into(Map<String, Map<String, Integer>> counts) {
            Map<String, Integer> c = PoolTransfer.counts(create, update, unchanged);
            if (skipped > 0) {
                c.put("skipped", skipped);
            }
            counts.put(section, c);
        }
    }
}
