package dev.detour.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.RecoveryRule;

/**
 * JSON documents of groups and accounts as the API shows them and the audit log stores them
 * (field names of SPEC §9). The api key is never part of one; only its hint.
 */
public final class Documents {
    public static final ObjectMapper JSON = new ObjectMapper();

    private Documents() {
    }

    public static ObjectNode group(AccountGroup g) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", g.id()).put("name", g.name()).put("ratio_ppm", g.ratioPpm()).put("color", g.color())
                .put("halt_policy", g.haltPolicy());
        o.put("created_at", g.createdAt().toString()).put("updated_at", g.updatedAt().toString());
        String error = GroupRules.configError(g.ratioPpm(), g.haltPolicy());
        if (error != null) {
            o.putObject("config_error").put("reason", error); // D-4: its accounts are out of routing until repaired
        }
        return o;
    }

    /** The account's config document (no state): what reads return under "state"-less keys. */
    public static ObjectNode account(StoredAccount stored) {
        AccountConfig c = stored.config();
        ObjectNode o = JSON.createObjectNode();
        o.put("id", stored.id()).put("name", c.name()).put("group", stored.groupName()).put("group_id", c.groupId())
                .put("platform", c.platform().wire()).put("base_url", c.baseUrl())
                .put("api_key_hint", stored.apiKeyHint());
        ArrayNode mappings = o.putArray("model_mappings");
        c.mappings().entries().forEach(m -> mappings.addObject().put("from", m.from()).put("to", m.to()));
        ArrayNode families = o.putArray("endpoint_families");
        c.effectiveFamilies().stream().sorted().forEach(f -> families.add(f.wire()));
        o.put("priority", c.priority()).put("weight", c.weight()).put("enabled", c.enabled())
                .put("archived", stored.account().archived()).put("max_in_flight", c.maxInFlight());
        o.putPOJO("quota_remaining", c.quotaRemaining());
        o.put("notes", c.notes());
        o.set("failure_policy", failurePolicy(c.failurePolicy()));
        o.set("recovery", recovery(c.recovery()));
        ObjectNode breaker = o.putObject("breaker").put("enabled", c.breaker().enabled())
                .put("threshold", c.breaker().threshold());
        c.breaker().ladderSeconds().forEach(breaker.putArray("ladder_seconds")::add);
        o.putObject("backoff").put("mode", c.backoff().mode()).put("base_seconds", c.backoff().baseSeconds())
                .put("cap_seconds", c.backoff().capSeconds());
        o.put("revision", stored.revision()).put("created_at", stored.createdAt().toString())
                .put("updated_at", stored.updatedAt().toString());
        if (stored.configError()) {
            configError(o, stored);
        }
        return o;
    }

    /** D-4: why, and which fields; an unreadable field shows null (what was read in its place is a stand-in). */
    private static void configError(ObjectNode o, StoredAccount stored) {
        ObjectNode error = o.putObject("config_error").put("reason", stored.account().configError());
        stored.unreadableFields().forEach(error.putArray("fields")::add);
        // the group's name and id are readable even when the group's settings are not
        stored.unreadableFields().stream().filter(f -> o.has(f) && !f.equals(StoredAccount.GROUP)).forEach(o::putNull);
    }

    static ObjectNode failurePolicy(FailurePolicy p) {
        return JSON.createObjectNode().put("retry_count", p.retryCount()).put("retry_interval_ms", p.retryIntervalMs())
                .put("cooldown_enabled", p.cooldownEnabled()).put("cooldown_seconds", p.cooldownSeconds())
                .put("semantic_error_threshold", p.semanticErrorThreshold())
                .put("error_status_enabled", p.errorStatusEnabled()).put("honor_retry_after", p.honorRetryAfter())
                .put("retry_after_cap_seconds", p.retryAfterCapSeconds());
    }

    static ObjectNode recovery(RecoveryRule rule) {
        ObjectNode o = JSON.createObjectNode().put("mode", rule.mode());
        if (rule instanceof RecoveryRule.Scheduled s) {
            s.wireTimes().forEach(o.putArray("times")::add);
        } else if (rule instanceof RecoveryRule.Healthcheck h) {
            o.put("probe_interval_minutes", h.probeIntervalMinutes());
        }
        return o;
    }
}
