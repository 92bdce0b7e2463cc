package dev.detour.adapter.db;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.AnthropicBetaPolicy;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import java.util.ArrayList;
import java.util.List;

/** breaker_json and backoff_json (C-6), anthropic_beta_json (B-5): same shape as the API; missing → defaults, corrupt → {@link CorruptColumnException} (D-4). */
public final class AccountPolicyColumns {
    private AccountPolicyColumns() {
    }

    public static String writeBreaker(BreakerPolicy b) {
        ObjectNode o = AccountJsonColumns.JSON.createObjectNode().put("enabled", b.enabled())
                .put("threshold", b.threshold());
        b.ladderSeconds().forEach(o.putArray("ladder_seconds")::add);
        return o.toString();
    }

    /** D-4: null is the default (C-6: off); anything else must be a valid breaker object or it is corrupt. */
    public static BreakerPolicy readBreaker(String json) {
        if (json == null) {
            return BreakerPolicy.DEFAULTS;
        }
        JsonNode o = AccountJsonColumns.object(json);
        List<Integer> ladder = null;
        JsonNode steps = o.get("ladder_seconds");
        if (steps != null && !steps.isNull()) {
            if (!steps.isArray()) {
                throw new CorruptColumnException("ladder_seconds must be a list of seconds");
            }
            ladder = new ArrayList<>();
            for (JsonNode n : steps) {
                if (!n.isIntegralNumber() || !n.canConvertToInt()) {
                    throw new CorruptColumnException("ladder_seconds must be a list of seconds");
                }
                ladder.add(n.intValue());
            }
        }
        List<Integer> ladderSeconds = ladder;
        return AccountJsonColumns.checked(() -> BreakerPolicy.withDefaults(AccountJsonColumns.bool(o, "enabled"),
                AccountJsonColumns.integer(o, "threshold"), ladderSeconds));
    }

    public static String writeBackoff(BackoffPolicy b) {
        return AccountJsonColumns.JSON.createObjectNode().put("mode", b.mode()).put("base_seconds", b.baseSeconds())
                .put("cap_seconds", b.capSeconds()).toString();
    }

    /** D-4: null is the default (fixed); anything else must be a valid backoff object or it is corrupt. */
    public static BackoffPolicy readBackoff(String json) {
        if (json == null) {
            return BackoffPolicy.DEFAULTS;
        }
        JsonNode o = AccountJsonColumns.object(json);
        JsonNode mode = o.get("mode");
        if (mode != null && !mode.isNull() && !mode.isTextual()) {
            throw new CorruptColumnException("mode must be fixed or exponential");
        }
        return AccountJsonColumns.checked(() -> BackoffPolicy.withDefaults(mode == null || mode.isNull() ? null
                : mode.asText(), AccountJsonColumns.integer(o, "base_seconds"), AccountJsonColumns.integer(o, "cap_seconds")));
    }

    /** B-5: the default (pass) is stored as null, so accounts never given a policy read the same after V16. */
    public static String writeAnthropicBeta(AnthropicBetaPolicy b) {
        if (b == null || b.equals(AnthropicBetaPolicy.DEFAULTS)) {
            return null;
        }
        ObjectNode o = AccountJsonColumns.JSON.createObjectNode().put("mode", b.mode());
        b.flags().forEach(o.putArray("flags")::add);
        return o.toString();
    }

    /** D-4: null is the default (pass); anything else must be a valid policy object or it is corrupt. */
    public static AnthropicBetaPolicy readAnthropicBeta(String json) {
        if (json == null) {
            return AnthropicBetaPolicy.DEFAULTS;
        }
        JsonNode o = AccountJsonColumns.object(json);
        JsonNode mode = o.get("mode");
        JsonNode flags = o.get("flags");
        if ((mode != null && !mode.isNull() && !mode.isTextual()) || (flags != null && !flags.isNull() && !flags.isArray())) {
            throw new CorruptColumnException("anthropic_beta must be {mode, flags}");
        }
        List<String> list = new ArrayList<>();
        if (flags != null) {
            for (JsonNode f : flags) {
                if (!f.isTextual()) {
                    throw new CorruptColumnException("anthropic_beta flags must be text");
                }
                list.add(f.asText());
            }
        }
        return AccountJsonColumns.checked(() -> AnthropicBetaPolicy.withDefaults(
                mode == null || mode.isNull() ? null : mode.asText(), list));
    }
}
