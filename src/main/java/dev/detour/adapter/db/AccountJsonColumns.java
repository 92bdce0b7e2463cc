package dev.detour.adapter.db;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.RecoveryRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The JSON/text columns of {@code accounts}: model_mappings_json, endpoint_families (comma list),
 * failure_policy_json and recovery_json (snake_case, as the API). Reads of policies are forgiving
 * corrupt → default); {@link #readRecovery} reports corruption so writes can refuse.
 */
public final class AccountJsonColumns {
    static final ObjectMapper JSON = new ObjectMapper();

    private AccountJsonColumns() {
    }

    public static String writeMappings(ModelMappings mappings) {
        ArrayNode array = JSON.createArrayNode();
        mappings.entries().forEach(m -> array.addObject().put("from", m.from()).put("to", m.to()));
        return array.toString();
    }

    /** Strict: an unreadable mapping list must not silently turn an account into pass-through. */
    public static ModelMappings readMappings(String json) {
        try {
            List<ModelMapping> entries = new ArrayList<>();
            for (JsonNode node : JSON.readTree(json)) {
                entries.add(new ModelMapping(node.path("from").asText(), node.path("to").asText()));
            }
            return new ModelMappings(entries);
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalStateException("stored model_mappings_json is corrupt");
        }
    }

    public static String writeFamilies(Set<EndpointFamily> families) {
        return families == null ? null
                : families.stream().sorted().map(EndpointFamily::wire).collect(Collectors.joining(","));
    }

    /** null = the platform's defaults; unknown names are skipped. */
    public static Set<EndpointFamily> readFamilies(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        Set<EndpointFamily> families = EnumSet.noneOf(EndpointFamily.class);
        Arrays.stream(text.split(",")).map(String::trim).forEach(wire -> {
            for (EndpointFamily f : EndpointFamily.values()) {
                if (f.wire().equals(wire)) {
                    families.add(f);
                }
            }
        });
        return families.isEmpty() ? null : families;
    }

    public static String writeFailurePolicy(FailurePolicy p) {
        ObjectNode o = JSON.createObjectNode();
        o.put("retry_count", p.retryCount()).put("retry_interval_ms", p.retryIntervalMs())
                .put("cooldown_enabled", p.cooldownEnabled()).put("cooldown_seconds", p.cooldownSeconds())
                .put("semantic_error_threshold", p.semanticErrorThreshold())
                .put("error_status_enabled", p.errorStatusEnabled()).put("honor_retry_after", p.honorRetryAfter())
                .put("retry_after_cap_seconds", p.retryAfterCapSeconds());
        return o.toString();
    }

    public static FailurePolicy readFailurePolicy(String json) {
        try {
            JsonNode o = json == null ? null : JSON.readTree(json);
            if (o == null || !o.isObject()) {
                return FailurePolicy.SEED_DEFAULTS; // C-1': a stored account keeps what it had (cooldown off)
            }
            Boolean cooldown = bool(o, "cooldown_enabled");
            return FailurePolicy.withDefaults(integer(o, "retry_count"), integer(o, "retry_interval_ms"),
                    cooldown != null ? cooldown : Boolean.FALSE, // C-1': stored without it = the old default, off
                    integer(o, "cooldown_seconds"), integer(o, "semantic_error_threshold"),
                    bool(o, "error_status_enabled"), bool(o, "honor_retry_after"),
                    integer(o, "retry_after_cap_seconds"));
        } catch (JsonProcessingException | RuntimeException e) {
            return FailurePolicy.SEED_DEFAULTS;
        }
    }

    /** off removes the key, so off is stored as null. */
    public static String writeRecovery(RecoveryRule rule) {
        if (rule instanceof RecoveryRule.Scheduled s) {
            ObjectNode o = JSON.createObjectNode().put("mode", "scheduled");
            s.wireTimes().forEach(o.putArray("times")::add);
            return o.toString();
        }
        if (rule instanceof RecoveryRule.Healthcheck h) {
            return JSON.createObjectNode().put("mode", "healthcheck")
                    .put("probe_interval_minutes", h.probeIntervalMinutes()).toString();
        }
        return null;
    }

    /** The stored rule, or empty when the column is corrupt (readers then fall back to off). */
    public static Optional<RecoveryRule> readRecovery(String json) {
        if (json == null || json.isBlank()) {
            return Optional.of(RecoveryRule.OFF);
        }
        try {
            JsonNode o = JSON.readTree(json);
            String mode = o.path("mode").asText("");
            return switch (mode) {
                case "off" -> Optional.of(RecoveryRule.OFF);
                case "scheduled" -> Optional.of(RecoveryRule.scheduled(texts(o.get("times"))));
                case "healthcheck" -> Optional.of(new RecoveryRule.Healthcheck(
                        o.path("probe_interval_minutes").asInt(RecoveryRule.Healthcheck.DEFAULT_MINUTES)));
                default -> Optional.empty();
            };
        } catch (JsonProcessingException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static Integer integer(JsonNode o, String field) {
        JsonNode n = o.get(field);
        return n != null && n.canConvertToInt() && n.isIntegralNumber() ? n.intValue() : null;
    }

    static Boolean bool(JsonNode o, String field) {
        JsonNode n = o.get(field);
        return n != null && n.isBoolean() ? n.booleanValue() : null;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }
}
