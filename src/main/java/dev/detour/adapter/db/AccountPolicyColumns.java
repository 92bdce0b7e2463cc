package dev.detour.adapter.db;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import java.util.ArrayList;
import java.util.List;

/** breaker_json and backoff_json (C-6): same shape as the API; corrupt or missing → defaults. */
public final class AccountPolicyColumns {
    private AccountPolicyColumns() {
    }

    public static String writeBreaker(BreakerPolicy b) {
        ObjectNode o = AccountJsonColumns.JSON.createObjectNode().put("enabled", b.enabled())
                .put("threshold", b.threshold());
        b.ladderSeconds().forEach(o.putArray("ladder_seconds")::add);
        return o.toString();
    }

    public static BreakerPolicy readBreaker(String json) {
        try {
            JsonNode o = json == null ? null : AccountJsonColumns.JSON.readTree(json);
            if (o == null || !o.isObject()) {
                return BreakerPolicy.DEFAULTS;
            }
            List<Integer> ladder = null;
            if (o.path("ladder_seconds").isArray()) {
                ladder = new ArrayList<>();
                for (JsonNode n : o.get("ladder_seconds")) {
                    ladder.add(n.asInt());
                }
            }
            return BreakerPolicy.withDefaults(AccountJsonColumns.bool(o, "enabled"),
                    AccountJsonColumns.integer(o, "threshold"), ladder);
        } catch (Exception e) {
            return BreakerPolicy.DEFAULTS;
        }
    }

    public static String writeBackoff(BackoffPolicy b) {
        return AccountJsonColumns.JSON.createObjectNode().put("mode", b.mode()).put("base_seconds", b.baseSeconds())
                .put("cap_seconds", b.capSeconds()).toString();
    }

    public static BackoffPolicy readBackoff(String json) {
        try {
            JsonNode o = json == null ? null : AccountJsonColumns.JSON.readTree(json);
            if (o == null || !o.isObject()) {
                return BackoffPolicy.DEFAULTS;
            }
            String mode = o.path("mode").isTextual() ? o.get("mode").asText() : null;
            return BackoffPolicy.withDefaults(mode, AccountJsonColumns.integer(o, "base_seconds"),
                    AccountJsonColumns.integer(o, "cap_seconds"));
        } catch (Exception e) {
            return BackoffPolicy.DEFAULTS;
        }
    }
}
