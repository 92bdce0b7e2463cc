package dev.detour.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.KeyPatch.Field;
import dev.detour.core.ValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A key policy's {@code groups} as sent (SPEC §9 key contract): include_future is checked when read; each list
 * keeps its own refusal, so include is refused before exclude, each when {@link #resolved} reaches it.
 */
public record GroupScopePatch(boolean includeFuture, Field<List<GroupRef>> include, Field<List<GroupRef>> exclude) {
    /** A group named by id or by name, as sent; resolved inside the transaction. */
    public record GroupRef(Long id, String text) {
        Long resolve(Map<String, Long> idsByName) {
            Long resolved = id != null ? id : idsByName.get(text);
            if (resolved == null || !idsByName.containsValue(resolved)) {
                throw invalidGroups("unknown group " + text);
            }
            return resolved;
        }
    }

    static final GroupScopePatch NONE = parse(AdminJson.JSON.createObjectNode());

    static GroupScopePatch parse(JsonNode n) {
        if (n.isNull()) {
            return NONE;
        }
        if (!n.isObject()) {
            throw invalidGroups("groups must be an object {include_future, include, exclude}");
        }
        JsonNode future = n.get("include_future");
        if (future != null && !future.isBoolean()) {
            throw invalidGroups("groups.include_future must be true or false");
        }
        return new GroupScopePatch(future == null || future.asBoolean(), Field.read(n, "include", GroupScopePatch::refs),
                Field.read(n, "exclude", GroupScopePatch::refs));
    }

    private static List<GroupRef> refs(JsonNode list) {
        List<GroupRef> out = new ArrayList<>();
        if (list.isNull()) {
            return out;
        }
        if (!list.isArray()) {
            throw invalidGroups("groups.include and groups.exclude are lists of group ids or names");
        }
        list.forEach(g -> out.add(new GroupRef(g.isIntegralNumber() ? g.asLong() : null, g.asText())));
        return out;
    }

    /** The groups to store: include_future and the two lists as ids; an unknown group is refused. */
    ObjectNode resolved(Map<String, Long> idsByName) {
        ObjectNode out = AdminJson.JSON.createObjectNode().put("include_future", includeFuture);
        ArrayNode in = out.putArray("include");
        include.orElse(List.of()).forEach(g -> in.add(g.resolve(idsByName)));
        ArrayNode ex = out.putArray("exclude");
        exclude.orElse(List.of()).forEach(g -> ex.add(g.resolve(idsByName)));
        return out;
    }

    private static ValidationException invalidGroups(String message) {
        return new ValidationException("validation.key_policy.groups", "groups", message);
    }
}
