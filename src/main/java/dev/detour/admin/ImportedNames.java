package dev.detour.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.ValidationException;
import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.port.Changes;

/**
 * W-2: a pool document names what this server knows by id (a block rule's account or group, a key policy's
 * manual group order); resolved inside the import's transaction, so objects the same document creates count.
 */
final class ImportedNames {
    private ImportedNames() {
    }

    /** S-10: an account or group rule names it in the document; this server's rule holds its id. */
    static BlockDraft withLocalId(Changes c, BlockDraft draft) {
        String name = draft.value();
        Long id;
        if ("account".equals(draft.scope())) {
            id = c.accounts().idByName(name);
        } else if ("group".equals(draft.scope())) {
            AccountGroup group = c.groups().byName(name);
            id = group == null ? null : group.id();
        } else {
            return draft; // a model or endpoint family rule holds its value as it is
        }
        if (id == null) {
            throw new ValidationException("validation.block_rule.value", "value", "no " + draft.scope() + " named "
                    + name + " on this server or in the document");
        }
        return new BlockDraft(draft.scope(), String.valueOf(id), draft.reason(), draft.expiresAt());
    }

    /** The document names the groups of {@code manual_group_order}; the stored policy holds this server's ids. */
    static ObjectNode withGroupIds(Changes c, ObjectNode body) {
        JsonNode order = body.get("manual_group_order");
        if (order == null || !order.isArray()) {
            return body;
        }
        ObjectNode out = body.deepCopy();
        ArrayNode ids = out.putArray("manual_group_order");
        for (JsonNode name : order) {
            AccountGroup g = c.groups().byName(name.asText());
            if (g == null) {
                throw new ValidationException("validation.key_policy.manual_group_order", "manual_group_order",
                        "unknown group " + name.asText());
            }
            ids.add(g.id());
        }
        return out;
    }
}
