package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.port.DetourKey;
import dev.detour.admin.KeyPolicies;
import dev.detour.admin.PoolTransfer.Item;
import dev.detour.core.ValidationException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * W-2 key policies of a pool document: each Detour key's name, owner, enabled flag, expiry and policy, groups
 * by name; never a key's secret (only its hash is stored, and a hash moved to another server would let the old
 * secret in there). An import applies a policy to the key of that name on this server. A key that does not
 * exist here is listed as skipped, not created: creating one would mint a new secret that no client holds, shown
 * once in an import answer that is easy to lose; the operator creates the key (and hands out its secret) and
 * imports again.
 */
final class KeysSection {
    static final String SECTION = "keys";
    static final String NOT_HERE = "key not on this server: policy not applied";
    private static final List<String> KEY_FIELDS = List.of("name", "owner_label", "enabled", "expires_at");

    private KeysSection() {
    }

    /** Keys whose stored policy cannot be read (D-4) are left out and named in {@code skipped}. */
    static void export(List<DetourKey> keys, List<AccountGroup> groups, ObjectNode doc, ArrayNode skipped) {
        Map<Long, String> names = new HashMap<>();
        groups.forEach(g -> names.put(g.id(), g.name()));
        ArrayNode out = doc.putArray(SECTION);
        for (DetourKey k : keys) {
            if (KeyPolicies.readStored(k.policyJson()).isEmpty()) {
                skipped.add("key " + k.name());
            } else {
                out.add(key(k, names));
            }
        }
    }

    /** A key as the document holds it: every field present (null when unset), groups by name. */
    private static ObjectNode key(DetourKey k, Map<Long, String> groupNames) {
        ObjectNode o = Documents.JSON.createObjectNode().put("name", k.name()).put("owner_label", k.ownerLabel())
                .put("enabled", k.enabled());
        o.put("expires_at", k.expiresAt() == null ? null : k.expiresAt().toString());
        ObjectNode policy = KeyPolicies.storedDocument(k.policyJson());
        for (String field : KeyPolicies.fields()) {
            o.set(field, policy.has(field) ? policy.get(field) : Documents.JSON.nullNode());
        }
        UnaryOperator<JsonNode> named = ids -> {
            ArrayNode list = Documents.JSON.createArrayNode();
            ids.forEach(id -> {
                String name = groupNames.get(id.asLong());
                if (name != null) {
                    list.add(name); // a group deleted since no longer limits the key
                }
            });
            return list;
        };
        if (o.get("groups").isObject()) {
            ObjectNode scope = o.get("groups").deepCopy();
            scope.set("include", named.apply(scope.path("include")));
            scope.set("exclude", named.apply(scope.path("exclude")));
            o.set("groups", scope);
        }
        if (o.get("manual_group_order").isArray()) {
            o.set("manual_group_order", named.apply(o.get("manual_group_order")));
        }
        return DocumentDiff.plain(o);
    }

    /** Policies to write to the keys of those names; keys missing here are skipped with {@link #NOT_HERE}. */
    static List<Item<ObjectNode>> read(JsonNode doc, List<DetourKey> stored, List<AccountGroup> groups,
            ArrayNode changes, Map<String, Map<String, Integer>> counts) {
        Map<String, DetourKey> byName = DocumentDiff.byName(stored, DetourKey::name);
        Map<Long, String> groupNames = new HashMap<>();
        groups.forEach(g -> groupNames.put(g.id(), g.name()));
        DocumentDiff.Tally tally = new DocumentDiff.Tally(changes, SECTION);
        List<Item<ObjectNode>> items = new ArrayList<>();
        DocumentDiff.forEachObject(doc, SECTION, (path, name, o) -> {
            o.fieldNames().forEachRemaining(field -> {
                if (!KEY_FIELDS.contains(field) && !KeyPolicies.fields().contains(field)) {
                    throw new ValidationException("validation.import.keys." + field, path + "." + field,
                            name + ": " + field + " is not a field of a key policy");
                }
            });
            DetourKey existing = byName.get(name);
            if (existing == null) {
                tally.skip(name, NOT_HERE);
                return;
            }
            List<String> fields = new ArrayList<>();
            ObjectNode now = key(existing, groupNames);
            o.fieldNames().forEachRemaining(field -> {
                if (!DocumentDiff.differing(pick(o, field), pick(now, field)).isEmpty()) {
                    fields.add(field);
                }
            });
            if (tally.note(name, fields)) {
                items.add(new Item<>(path, name, existing.id(), o.deepCopy()));
            }
        });
        tally.into(counts);
        return items;
    }

    /** {@code {field: value}} with null when {@code o} lacks it, so a field set on one side only differs. */
    private static ObjectNode pick(ObjectNode o, String field) {
        ObjectNode one = Documents.JSON.createObjectNode();
        one.set(field, o.has(field) ? o.get(field) : Documents.JSON.nullNode());
        return one;
    }
}
