package dev.detour.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.ValidationException;
import dev.detour.core.keys.BalancedWeights;
import dev.detour.core.keys.GroupScope;
import dev.detour.core.keys.KeyLimits;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.keys.LimitWindow;
import dev.detour.core.keys.KeyStrategy;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A key's policy as stored (policy_json) and as the API shows it (SPEC §9 key contract). Groups
 * are stored by id; the API accepts ids or names. A corrupt column is reported by {@link #readStored}
 * (D-4: the key is config_error and refused); {@link #read} gives the unrestricted default for display.
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

    /** Validates the policy fields of an API body (over a stored base) and returns the document to store. */
    public static ObjectNode merge(ObjectNode stored, JsonNode patch, Map<String, Long> groupIdsByName) {
        ObjectNode out = stored == null ? AdminJson.JSON.createObjectNode() : stored.deepCopy();
        for (String field : POLICY_FIELDS) {
            if (patch.has(field)) {
                out.set(field, patch.get(field));
            }
        }
        out.set("allowed_models", models(out.get("allowed_models")));
        out.set("groups", groups(out.get("groups"), groupIdsByName));
        decode(out);
        return out;
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

    static KeyPolicy decode(ObjectNode doc) {
        Set<String> models = new LinkedHashSet<>();
        doc.path("allowed_models").forEach(m -> models.add(m.asText()));
        JsonNode g = doc.path("groups");
        GroupScope scope = new GroupScope(g.path("include_future").asBoolean(true), ids(g.path("include")),
                ids(g.path("exclude")));
        long maxRatio = integer(doc, "max_ratio_ppm", "validation.key_policy.max_ratio_ppm");
        int maxAttempts = (int) integer(doc, "max_attempts", "validation.key_policy.max_attempts");
        KeyStrategy strategy = KeyStrategy.fromWire(doc.path("strategy").isTextual() ? doc.get("strategy").asText()
                : null);
        JsonNode w = doc.path("balanced_weights");
        BalancedWeights weights = w.isObject() ? new BalancedWeights(w.path("stability").asInt(),
                w.path("price").asInt(), w.path("latency").asInt()) : BalancedWeights.DEFAULT;
        List<Long> manualOrder = new ArrayList<>();
        doc.path("manual_group_order").forEach(n -> manualOrder.add(n.asLong()));
        int premium = doc.has("affinity_premium_pct") && !doc.get("affinity_premium_pct").isNull()
                ? (int) integer(doc, "affinity_premium_pct", "validation.key_policy.affinity_premium_pct")
                : KeyPolicy.DEFAULT_AFFINITY_PREMIUM_PCT;
        Long spendLimit = doc.hasNonNull("spend_limit") ? spendLimitMicros(doc.get("spend_limit")) : null;
        return new KeyPolicy(models, scope, maxRatio, strategy, maxAttempts, weights, manualOrder, premium,
                spendLimit, limits(doc));
    }

    /** L-1: whole numbers or null (none); spend_windows maps 5h / day / week / month to micros or null. */
    private static KeyLimits limits(ObjectNode doc) {
        Long concurrency = optionalWhole(doc, "concurrency_limit");
        if (concurrency != null && concurrency > Integer.MAX_VALUE) {
            throw new ValidationException("validation.key_policy.concurrency_limit", "concurrency_limit",
                    "concurrency_limit is too large");
        }
        return new KeyLimits(optionalWhole(doc, "rpm_limit"), optionalWhole(doc, "tpm_limit"),
                concurrency == null ? null : concurrency.intValue(), spendWindows(doc.get("spend_windows")));
    }

    private static Long optionalWhole(JsonNode doc, String field) {
        JsonNode n = doc.get(field);
        return n == null || n.isNull() ? null : integer(doc, field, "validation.key_policy." + field);
    }

    private static Map<LimitWindow, Long> spendWindows(JsonNode node) {
        Map<LimitWindow, Long> out = new EnumMap<>(LimitWindow.class);
        if (node == null || node.isNull()) {
            return out;
        }
        String code = "validation.key_policy.spend_windows";
        if (!node.isObject()) {
            throw new ValidationException(code, "spend_windows",
                    "spend_windows must be an object such as {\"day\": 5000000} (micros per window)");
        }
        for (var it = node.fields(); it.hasNext();) {
            var e = it.next();
            LimitWindow window = LimitWindow.spendWindow(e.getKey());
            if (window == null) {
                throw new ValidationException(code, "spend_windows", "unknown spend window " + e.getKey()
                        + "; the windows are 5h, day, week and month");
            }
            JsonNode micros = e.getValue();
            if (micros.isNull()) {
                continue;
            }
            if (!micros.isIntegralNumber() || !micros.canConvertToLong()) {
                throw new ValidationException(code, "spend_windows", "spend_windows." + e.getKey()
                        + " must be a whole number of micros or null");
            }
            out.put(window, micros.asLong());
        }
        return out;
    }

    /** spend_limit is in the site currency (e.g. 12.5); stored spend is in micro-units. */
    private static Long spendLimitMicros(JsonNode n) {
        if (!n.isNumber()) {
            throw new ValidationException("validation.key_policy.spend_limit", "spend_limit",
                    "spend_limit must be a number or null");
        }
        return Math.round(n.asDouble() * 1_000_000);
    }

    private static long integer(JsonNode doc, String field, String code) {
        JsonNode n = doc.get(field);
        if (n == null || n.isNull()) {
            return 0;
        }
        if (!n.canConvertToLong() || !n.isIntegralNumber()) {
            throw new ValidationException(code, field, field + " must be a whole number");
        }
        return n.asLong();
    }

    private static ArrayNode models(JsonNode node) {
        ArrayNode out = AdminJson.JSON.createArrayNode();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isArray()) {
            throw invalidModels("allowed_models must be a list of model names");
        }
        for (JsonNode m : node) {
            if (!m.isTextual() || m.asText().isBlank() || m.asText().length() > 191) {
                throw invalidModels("every allowed model is a name of 1–191 characters");
            }
            out.add(m.asText().trim());
        }
        return out;
    }

    private static ObjectNode groups(JsonNode node, Map<String, Long> idsByName) {
        ObjectNode out = AdminJson.JSON.createObjectNode();
        if (node != null && !node.isNull() && !node.isObject()) {
            throw invalidGroups("groups must be an object {include_future, include, exclude}");
        }
        JsonNode n = node == null ? AdminJson.JSON.createObjectNode() : node;
        JsonNode future = n.get("include_future");
        if (future != null && !future.isBoolean()) {
            throw invalidGroups("groups.include_future must be true or false");
        }
        out.put("include_future", future == null || future.asBoolean());
        out.set("include", groupIds(n.get("include"), idsByName));
        out.set("exclude", groupIds(n.get("exclude"), idsByName));
        return out;
    }

    private static ArrayNode groupIds(JsonNode list, Map<String, Long> idsByName) {
        ArrayNode out = AdminJson.JSON.createArrayNode();
        if (list == null || list.isNull()) {
            return out;
        }
        if (!list.isArray()) {
            throw invalidGroups("groups.include and groups.exclude are lists of group ids or names");
        }
        for (JsonNode g : list) {
            Long id = g.isIntegralNumber() ? Long.valueOf(g.asLong()) : idsByName.get(g.asText());
            if (id == null || !idsByName.containsValue(id)) {
                throw invalidGroups("unknown group " + g.asText());
            }
            out.add(id);
        }
        return out;
    }

    private static Set<Long> ids(JsonNode list) {
        Set<Long> ids = new LinkedHashSet<>();
        list.forEach(n -> ids.add(n.asLong()));
        return ids;
    }

    private static ValidationException invalidModels(String message) {
        return new ValidationException("validation.key_policy.allowed_models", "allowed_models", message);
    }

    private static ValidationException invalidGroups(String message) {
        return new ValidationException("validation.key_policy.groups", "groups", message);
    }
}
