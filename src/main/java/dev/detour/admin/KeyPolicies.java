package dev.detour.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.keys.GroupScope;
import dev.detour.core.keys.KeyPolicy;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A key's policy as stored (policy_json) and as the API shows it (SPEC §9 key contract). Groups
 * are stored by id; the API accepts ids or names ({@link PolicyPatch} reads and checks what is sent).
 * A corrupt column is reported by {@link #readStored} (D-4: the key is config_error and refused); {@link #read} gives the unrestricted default for display.
 */
public final class KeyPolicies {
    private static final String[] POLICY_FIELDS = {"allowed_models", "groups", "max_ratio_ppm", "strategy",
        "max_attempts", "balanced_weights", "manual_group_order", "affinity_premium_pct", "spend_limit", "rpm_limit",
        "tpm_limit", "concurrency_limit", "spend_windows"};

    /** The policy's fields as the API and a pool document (W-2) carry them. */
    public static List<String> fields() {
        return List.of(POLICY_FIELDS);
    }

    /** D-4: the config error of a key whose policy_json cannot be read. */
    public static final String UNREADABLE = "policy: the stored policy cannot be read";

    private KeyPolicies() {
    }

    public static KeyPolicy read(String json) {
        return readStored(json).orElse(KeyPolicy.UNRESTRICTED);
    }

    /**
     * D-4: the stored policy, or empty when it cannot be read. The gateway then refuses the key
     * ({@code key.config_error}) instead of serving it unrestricted: a lost spend limit or group
     * scope must never widen what a key may do.
     */
    public static Optional<KeyPolicy> readStored(String json) {
        try {
            return AdminJson.JSON.readTree(json) instanceof ObjectNode doc ? Optional.of(decode(doc)) : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /** The stored policy document as it is (an empty one when it cannot be parsed), for showing and merging. */
    public static ObjectNode storedDocument(String json) {
        try {
            JsonNode node = AdminJson.JSON.readTree(json);
            return node instanceof ObjectNode o ? o : AdminJson.JSON.createObjectNode();
        } catch (JsonProcessingException e) {
            return AdminJson.JSON.createObjectNode();
        }
    }

    /** A stored document as the gateway reads it: models and group ids as stored, the other fields checked. */
    static KeyPolicy decode(ObjectNode doc) {
        Set<String> models = new LinkedHashSet<>();
        doc.path("allowed_models").forEach(m -> models.add(m.asText()));
        JsonNode g = doc.path("groups");
        GroupScope scope = new GroupScope(g.path("include_future").asBoolean(true), ids(g.path("include")),
                ids(g.path("exclude")));
        return PolicyPatch.parse(doc).policy(models, scope);
    }

    private static Set<Long> ids(JsonNode list) {
        Set<Long> ids = new LinkedHashSet<>();
        list.forEach(n -> ids.add(n.asLong()));
        return ids;
    }
}
