package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import dev.detour.core.ValidationException;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.RecoveryRule;
import java.util.ArrayList;
import java.util.List;

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
        String code = FailurePolicy.ERROR_CODE;
        JsonFields p = body.object("failure_policy", code);
        if (p == null) {
            return null;
        }
        return FailurePolicy.withDefaults(p.integer("retry_count", code), p.integer("retry_interval_ms", code),
                p.bool("cooldown_enabled", code), p.integer("cooldown_seconds", code),
                p.integer("semantic_error_threshold", code), p.bool("error_status_enabled", code),
                p.bool("honor_retry_after", code), p.integer("retry_after_cap_seconds", code));
    }

    static RecoveryRule recovery(JsonFields body) {
        JsonFields r = body.object("recovery", "validation.recovery_mode");
        if (r == null) {
            return null;
        }
        String mode = r.text("mode", "validation.recovery_mode");
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
        throw new ValidationException("validation.recovery_mode", "recovery.mode",
                "recovery mode must be off, scheduled or healthcheck");
    }

    static BreakerPolicy breaker(JsonFields body) {
        String code = BreakerPolicy.ERROR_CODE;
        JsonFields b = body.object("breaker", code);
        if (b == null) {
            return null;
        }
        return BreakerPolicy.withDefaults(b.bool("enabled", code), b.integer("threshold", code),
                b.integers("ladder_seconds", code));
    }

    static BackoffPolicy backoff(JsonFields body) {
        String code = BackoffPolicy.ERROR_CODE;
        JsonFields b = body.object("backoff", code);
        if (b == null) {
            return null;
        }
        return BackoffPolicy.withDefaults(b.text("mode", code), b.integer("base_seconds", code),
                b.integer("cap_seconds", code));
    }
}
