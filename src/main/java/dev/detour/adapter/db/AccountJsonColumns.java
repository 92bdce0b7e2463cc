package dev.detour.adapter.db;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.StoredText;
import dev.detour.core.ValidationException;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.Protocols;
import dev.detour.core.account.RecoveryRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The JSON/text columns of {@code accounts}: model_mappings_json, endpoint_families (comma list),
 * failure_policy_json and recovery_json (snake_case, as the API). Reads are strict (D-4): a column
 * that cannot be decoded throws {@link CorruptColumnException} and the account becomes
 * {@code config_error}; only {@link #readRecovery} reports corruption as empty (R-2: reads as off).
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
        JsonNode array = tree(json);
        if (!array.isArray()) {
            throw new CorruptColumnException("not a JSON array of {from, to}");
        }
        List<ModelMapping> entries = new ArrayList<>();
        for (JsonNode node : array) {
            if (!node.path("from").isTextual() || !node.path("to").isTextual()) {
                throw new CorruptColumnException("every mapping needs a text from and to");
            }
            entries.add(new ModelMapping(node.get("from").asText(), node.get("to").asText()));
        }
        return checked(() -> ModelMappings.of(entries));
    }

    public static String writeFamilies(Set<EndpointFamily> families) {
        return families == null ? null
                : families.stream().sorted().map(EndpointFamily::wire).collect(Collectors.joining(","));
    }

    /** null = the platform's defaults; an unknown name is corrupt (D-4: never guess what to serve). */
    public static Set<EndpointFamily> readFamilies(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        Set<EndpointFamily> families = EnumSet.noneOf(EndpointFamily.class);
        for (String wire : text.split(",")) {
            families.add(Arrays.stream(EndpointFamily.values()).filter(f -> f.wire().equals(wire.trim())).findFirst()
                    .orElseThrow(() -> new CorruptColumnException(
                            "unknown endpoint family '" + StoredText.shortText(wire) + "'")));
        }
        return families;
    }

    /** B-1: null = the platform's default; a name that is not a conversational protocol is corrupt. */
    public static Set<EndpointFamily> readProtocols(String text) {
        Set<EndpointFamily> protocols = readFamilies(text);
        if (protocols != null && (protocols.isEmpty() || !protocols.stream().allMatch(Protocols::conversational))) {
            throw new CorruptColumnException("protocols must name chat_completions, responses or messages");
        }
        return protocols;
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

    /** Forgiving: a corrupt column reads as the stored default (C-1'). Only for callers that must not fail. */
    public static FailurePolicy readFailurePolicy(String json) {
        try {
            return decodeFailurePolicy(json);
        } catch (CorruptColumnException e) {
            return FailurePolicy.SEED_DEFAULTS;
        }
    }

    /** D-4: null is the stored default; anything else must be a valid policy object or it is corrupt. */
    public static FailurePolicy decodeFailurePolicy(String json) {
        if (json == null) {
            return FailurePolicy.SEED_DEFAULTS; // C-1': a stored account keeps what it had (cooldown off)
        }
        JsonNode o = object(json);
        Boolean cooldown = bool(o, "cooldown_enabled");
        return checked(() -> FailurePolicy.withDefaults(integer(o, "retry_count"), integer(o, "retry_interval_ms"),
                cooldown != null ? cooldown : Boolean.FALSE, // C-1': stored without it = the old default, off
                integer(o, "cooldown_seconds"), integer(o, "semantic_error_threshold"),
                bool(o, "error_status_enabled"), bool(o, "honor_retry_after"),
                integer(o, "retry_after_cap_seconds")));
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

    /** A whole number, or null when absent; any other value is corrupt (D-4). */
    static Integer integer(JsonNode o, String field) {
        JsonNode n = o.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
            throw new CorruptColumnException(field + " must be a whole number");
        }
        return n.intValue();
    }

    /** true/false, or null when absent; any other value is corrupt (D-4). */
    static Boolean bool(JsonNode o, String field) {
        JsonNode n = o.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isBoolean()) {
            throw new CorruptColumnException(field + " must be true or false");
        }
        return n.booleanValue();
    }

    /** The column as a JSON object, or corrupt. */
    static JsonNode object(String json) {
        JsonNode o = tree(json);
        if (!o.isObject()) {
            throw new CorruptColumnException("not a JSON object");
        }
        return o;
    }

    private static JsonNode tree(String json) {
        try {
            JsonNode node = json == null ? null : JSON.readTree(json);
            if (node == null || node.isMissingNode()) {
                throw new CorruptColumnException("empty");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new CorruptColumnException("not valid JSON");
        }
    }

    /** Runs a core constructor whose validation names the out-of-range value; its message becomes the reason. */
    static <T> T checked(Supplier<T> build) {
        try {
            return build.get();
        } catch (ValidationException e) {
            throw new CorruptColumnException(e.getMessage());
        }
    }


    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }
}
