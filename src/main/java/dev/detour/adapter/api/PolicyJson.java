package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.core.account.AnthropicBetaPolicy;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import dev.detour.core.ValidationException;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.RecoveryRule;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/** The structured members of an account body, each validated by its own rules (C-1, R-2, C-6). */
final class PolicyJson {
    private static final String MAPPINGS = "validation.model_mappings";

    private PolicyJson() {
    }

    static ModelMappings mappings(JsonFields body) {
        List<JsonNode> items = body.array("model_mappings", MAPPINGS);
        if (items == null) {
            return null;
        }
        List<ModelMapping> entries = new ArrayList<>();
        for (JsonNode item : items) {
            if (!item.isObject() || !item.path("from").isTextual() || !item.path("to").isTextual()) {
                throw new ValidationException(MAPPINGS, "model_mappings", "every mapping is {\"from\":\"…\",\"to\":\"…\"}");
            }
            entries.add(new ModelMapping(item.get("from").textValue(), item.get("to").textValue()));
        }
        return ModelMappings.of(entries);
    }

    /** C-1: a partial object keeps the defaults for missing fields. */
    static FailurePolicy failurePolicy(JsonFields body) {
        return member(body, "failure_policy", FailurePolicy.ERROR_CODE, (p, code) -> FailurePolicy.withDefaults(
                p.integer("retry_count", code), p.integer("retry_interval_ms", code),
                p.bool("cooldown_enabled", code), p.integer("cooldown_seconds", code),
                p.integer("semantic_error_threshold", code), p.bool("error_status_enabled", code),
                p.bool("honor_retry_after", code), p.integer("retry_after_cap_seconds", code)));
    }

    static RecoveryRule recovery(JsonFields body) {
        return member(body, "recovery", "validation.recovery_mode", PolicyJson::recoveryRule);
    }

    private static RecoveryRule recoveryRule(JsonFields r, String code) {
        String mode = r.text("mode", code);
        if ("off".equals(mode)) {
            return RecoveryRule.OFF;
        }
        if ("scheduled".equals(mode)) {
            return RecoveryRule.scheduled(r.texts("times", "validation.recovery_times"));
        }
        if ("healthcheck".equals(mode)) {
            Integer minutes = r.integer("probe_interval_minutes", "validation.recovery_probe_interval");
            return new RecoveryRule.Healthcheck(minutes != null ? minutes : RecoveryRule.Healthcheck.DEFAULT_MINUTES);
        }
        throw new ValidationException(code, "recovery.mode", "recovery mode must be off, scheduled or healthcheck");
    }

    static BreakerPolicy breaker(JsonFields body) {
        return member(body, "breaker", BreakerPolicy.ERROR_CODE, (b, code) -> BreakerPolicy.withDefaults(
                b.bool("enabled", code), b.integer("threshold", code), b.integers("ladder_seconds", code)));
    }

    static BackoffPolicy backoff(JsonFields body) {
        return member(body, "backoff", BackoffPolicy.ERROR_CODE, (b, code) -> BackoffPolicy.withDefaults(
                b.text("mode", code), b.integer("base_seconds", code), b.integer("cap_seconds", code)));
    }

    /** B-5: {@code {"mode": "pass"|"strip"|"strip_all", "flags": [...]}}; a missing member keeps its default. */
    static AnthropicBetaPolicy anthropicBeta(JsonFields body) {
        return member(body, "anthropic_beta", AnthropicBetaPolicy.ERROR_CODE, (b, code) ->
                AnthropicBetaPolicy.withDefaults(b.text("mode", code), b.texts("flags", code)));
    }

    /** The object member {@code name} read by {@code read}, or null when the body leaves it out. */
    private static <T> T member(JsonFields body, String name, String code, BiFunction<JsonFields, String, T> read) {
        JsonFields member = body.object(name, code);
        return member == null ? null : read.apply(member, code);
    }
}
