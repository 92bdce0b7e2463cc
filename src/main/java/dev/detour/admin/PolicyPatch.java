package dev.detour.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.KeyPatch.Field;
import dev.detour.core.ValidationException;
import dev.detour.core.keys.BalancedWeights;
import dev.detour.core.keys.GroupScope;
import dev.detour.core.keys.KeyLimits;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.keys.KeyStrategy;
import dev.detour.core.keys.LimitWindow;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The policy fields of a key patch (SPEC §9 key contract), each absent, null, a value or its refusal.
 * Groups stay references ({@link GroupScopePatch}) until {@link #document} resolves them against the groups
 * of the transaction. A patch over the stored policy ({@link #over}) is checked whole, stored fields
 * included, in the contract's order: allowed_models, groups, then the fields of {@link #policy}.
 */
public record PolicyPatch(Field<List<String>> allowedModels, Field<GroupScopePatch> groups, Field<Long> maxRatioPpm,
        Field<KeyStrategy> strategy, Field<Long> maxAttempts, Field<BalancedWeights> balancedWeights,
        Field<List<Long>> manualGroupOrder, Field<Long> affinityPremiumPct, Field<Long> spendLimitMicros,
        Field<Long> rpmLimit, Field<Long> tpmLimit, Field<Long> concurrencyLimit,
        Field<Map<LimitWindow, Long>> spendWindows) {

    public static PolicyPatch parse(JsonNode body) {
        return new PolicyPatch(Field.read(body, "allowed_models", PolicyPatch::models),
                Field.read(body, "groups", GroupScopePatch::parse),
                Field.read(body, "max_ratio_ppm", n -> whole(n, "max_ratio_ppm")),
                Field.read(body, "strategy", n -> KeyStrategy.fromWire(n.isTextual() ? n.asText() : null)),
                Field.read(body, "max_attempts", n -> whole(n, "max_attempts")),
                Field.read(body, "balanced_weights", n -> n.isObject() ? new BalancedWeights(n.path("stability").asInt(),
                        n.path("price").asInt(), n.path("latency").asInt()) : BalancedWeights.DEFAULT),
                Field.read(body, "manual_group_order", PolicyPatch::groupOrder),
                Field.read(body, "affinity_premium_pct", n -> whole(n, "affinity_premium_pct")),
                Field.read(body, "spend_limit", PolicyPatch::spendLimitMicros),
                Field.read(body, "rpm_limit", n -> whole(n, "rpm_limit")),
                Field.read(body, "tpm_limit", n -> whole(n, "tpm_limit")),
                Field.read(body, "concurrency_limit", PolicyPatch::concurrency),
                Field.read(body, "spend_windows", PolicyPatch::spendWindows));
    }

    /** This patch over {@code stored}: each field sent replaces the stored one. */
    public PolicyPatch over(PolicyPatch stored) {
        return new PolicyPatch(allowedModels.over(stored.allowedModels), groups.over(stored.groups),
                maxRatioPpm.over(stored.maxRatioPpm), strategy.over(stored.strategy), maxAttempts.over(stored.maxAttempts),
                balancedWeights.over(stored.balancedWeights), manualGroupOrder.over(stored.manualGroupOrder),
                affinityPremiumPct.over(stored.affinityPremiumPct), spendLimitMicros.over(stored.spendLimitMicros),
                rpmLimit.over(stored.rpmLimit), tpmLimit.over(stored.tpmLimit), concurrencyLimit.over(stored.concurrencyLimit),
                spendWindows.over(stored.spendWindows));
    }

    /**
     * The policy_json to store: {@code stored} with the sent fields as they came, the models trimmed and the
     * groups resolved to ids; refused at the first invalid field, the merged policy checked whole.
     */
    public ObjectNode document(ObjectNode stored, Map<String, Long> groupIdsByName) {
        PolicyPatch merged = over(parse(stored));
        ObjectNode out = stored.deepCopy();
        List<Field<?>> sent = fields();
        for (int i = 0; i < sent.size(); i++) {
            if (!sent.get(i).absent()) {
                out.set(KeyPolicies.fields().get(i), sent.get(i).sent());
            }
        }
        ArrayNode models = out.putArray("allowed_models");
        List<String> modelNames = merged.allowedModels.orElse(null);
        if (modelNames != null) {
            modelNames.forEach(models::add);
        }
        GroupScopePatch g = merged.groups.orElse(null);
        out.set("groups", (g == null ? GroupScopePatch.NONE : g).resolved(groupIdsByName));
        merged.policy(Set.of(), GroupScope.ALL); // the remaining fields, checked in order; models and groups are above
        return out;
    }

    /** The fields in the order of {@link KeyPolicies#fields()}. */
    private List<Field<?>> fields() {
        return List.of(allowedModels, groups, maxRatioPpm, strategy, maxAttempts, balancedWeights, manualGroupOrder,
                affinityPremiumPct, spendLimitMicros, rpmLimit, tpmLimit, concurrencyLimit, spendWindows);
    }

    /** The policy with the models and group scope given (checked or read by the caller), in the contract's order. */
    KeyPolicy policy(Set<String> models, GroupScope scope) {
        long maxRatio = orZero(maxRatioPpm.orElse(null));
        int attempts = (int) orZero(maxAttempts.orElse(null));
        KeyStrategy keyStrategy = strategy.orElse(KeyStrategy.PRIORITY);
        BalancedWeights weights = balancedWeights.orElse(BalancedWeights.DEFAULT);
        List<Long> manualOrder = manualGroupOrder.orElse(List.of());
        Long premium = affinityPremiumPct.orElse(null);
        Long spendLimit = spendLimitMicros.orElse(null);
        Long concurrency = concurrencyLimit.orElse(null);
        KeyLimits limits = new KeyLimits(rpmLimit.orElse(null), tpmLimit.orElse(null),
                concurrency == null ? null : concurrency.intValue(), spendWindows.orElse(new EnumMap<>(LimitWindow.class)));
        return new KeyPolicy(models, scope, maxRatio, keyStrategy, attempts, weights, manualOrder,
                premium == null ? KeyPolicy.DEFAULT_AFFINITY_PREMIUM_PCT : premium.intValue(), spendLimit, limits);
    }

    private static long orZero(Long n) {
        return n == null ? 0 : n;
    }

    private static List<String> models(JsonNode node) {
        List<String> out = new ArrayList<>();
        if (node.isNull()) {
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

    private static List<Long> groupOrder(JsonNode node) {
        List<Long> out = new ArrayList<>();
        node.forEach(n -> out.add(n.asLong()));
        return out;
    }

    /** L-1: whole numbers or null (none). */
    private static Long whole(JsonNode n, String field) {
        if (n.isNull()) {
            return null;
        }
        if (!n.canConvertToLong() || !n.isIntegralNumber()) {
            throw new ValidationException("validation.key_policy." + field, field, field + " must be a whole number");
        }
        return n.asLong();
    }

    private static Long concurrency(JsonNode n) {
        Long concurrency = whole(n, "concurrency_limit");
        if (concurrency != null && concurrency > Integer.MAX_VALUE) {
            throw new ValidationException("validation.key_policy.concurrency_limit", "concurrency_limit",
                    "concurrency_limit is too large");
        }
        return concurrency;
    }

    /** spend_limit is in the site currency (e.g. 12.5); stored spend is in micro-units. */
    private static Long spendLimitMicros(JsonNode n) {
        if (n.isNull()) {
            return null;
        }
        if (!n.isNumber()) {
            throw new ValidationException("validation.key_policy.spend_limit", "spend_limit",
                    "spend_limit must be a number or null");
        }
        return Math.round(n.asDouble() * 1_000_000);
    }

    /** L-1: spend_windows maps 5h / day / week / month to micros or null. */
    private static Map<LimitWindow, Long> spendWindows(JsonNode node) {
        Map<LimitWindow, Long> out = new EnumMap<>(LimitWindow.class);
        if (node.isNull()) {
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

    private static ValidationException invalidModels(String message) {
        return new ValidationException("validation.key_policy.allowed_models", "allowed_models", message);
    }

}
