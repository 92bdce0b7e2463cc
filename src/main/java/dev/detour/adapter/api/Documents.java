package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.port.AccountConfig;
import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.port.AuditDocuments;
import dev.detour.admin.port.BlockRuleEntry;
import dev.detour.admin.port.DetourKey;
import dev.detour.admin.GroupRules;
import dev.detour.admin.KeyPolicies;
import dev.detour.admin.port.LoggedRequest;
import dev.detour.admin.PriceAdmin;
import dev.detour.admin.port.PriceEntry;
import dev.detour.admin.port.SettingValues;
import dev.detour.admin.port.StoredAccount;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.RecoveryRule;
import java.util.List;

/**
 * JSON documents of what the admin API shows and the audit log stores (field names of SPEC §9):
 * groups, accounts, Detour keys, prices, block rules, settings and logged requests. No secret is
 * ever part of one: an account shows its key's hint, a Detour key its hint, never the key or its hash.
 */
public final class Documents {
    public static final ObjectMapper JSON = new ObjectMapper();

    /** U-6: the audit log stores the same documents, as text. */
    public static final AuditDocuments AUDIT = new AuditDocuments() {
        @Override
        public String group(AccountGroup group) {
            return group == null ? null : Documents.group(group).toString();
        }

        @Override
        public String account(StoredAccount account) {
            return account == null ? null : Documents.account(account).toString();
        }

        @Override
        public String key(DetourKey key) {
            return key == null ? null : Documents.key(key).toString();
        }

        @Override
        public String prices(List<PriceEntry> prices) {
            return Documents.prices(prices).toString();
        }

        @Override
        public String block(BlockRuleEntry block) {
            return block == null ? null : Documents.block(block).toString();
        }

        @Override
        public String settings(SettingValues settings) {
            return Documents.settings(settings).toString();
        }
    };

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
        ArrayNode protocols = o.putArray("protocols"); // B-1: the effective set, the default when unset
        c.effectiveProtocols().stream().sorted().forEach(f -> protocols.add(f.wire()));
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
        ObjectNode beta = o.putObject("anthropic_beta").put("mode", c.anthropicBeta().mode());
        c.anthropicBeta().flags().forEach(beta.putArray("flags")::add);
        o.put("bridge_reasoning", c.bridgeReasoning()); // B-6
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

    /** The key's document: never the key or its hash, only the hint. */
    public static ObjectNode key(DetourKey k) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", k.id()).put("name", k.name()).put("owner_label", k.ownerLabel()).put("key_hint", k.keyHint())
                .put("enabled", k.enabled()).put("expires_at", k.expiresAt() == null ? null : k.expiresAt().toString());
        ObjectNode policy = KeyPolicies.storedDocument(k.policyJson());
        policy.fields().forEachRemaining(e -> o.set(e.getKey(), e.getValue()));
        o.put("spent_micros", k.spentMicros());
        if (KeyPolicies.readStored(k.policyJson()).isEmpty()) {
            o.putObject("config_error").put("reason", KeyPolicies.UNREADABLE); // D-4: refused until saved again
        }
        o.put("created_at", k.createdAt().toString()).put("updated_at", k.updatedAt().toString())
                .put("last_used_at", k.lastUsedAt() == null ? null : k.lastUsedAt().toString());
        return o;
    }

    public static ObjectNode prices(List<PriceEntry> rows) {
        ObjectNode page = JSON.createObjectNode();
        ArrayNode items = page.putArray("prices");
        rows.forEach(p -> items.addObject().put("model", p.model()).put("input_micros_per_m", p.inputMicrosPerM())
                .put("output_micros_per_m", p.outputMicrosPerM())
                .put(PriceAdmin.CACHE_FIELDS.get(0), p.cacheReadMicrosPerM())
                .put(PriceAdmin.CACHE_FIELDS.get(1), p.cacheWrite5mMicrosPerM())
                .put(PriceAdmin.CACHE_FIELDS.get(2), p.cacheWrite1hMicrosPerM()));
        return page;
    }

    public static ObjectNode block(BlockRuleEntry b) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", b.id()).put("scope", b.scope()).put("value", b.value()).put("reason", b.reason())
                .put("operator", b.operator()).put("expires_at", b.expiresAt() == null ? null : b.expiresAt().toString())
                .put("created_at", b.createdAt().toString());
        return o;
    }

    /** Every setting by wire name. */
    public static ObjectNode settings(SettingValues values) {
        ObjectNode o = JSON.createObjectNode();
        values.values().forEach(o::put);
        return o;
    }

    /** The SPEC §9 event document. */
    public static ObjectNode request(LoggedRequest e) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", e.requestId()).put("key_id", e.keyId()).put("endpoint", e.endpoint())
                .put("client_protocol", e.clientProtocol()).put("upstream_protocol", e.upstreamProtocol())
                .put("model", e.requestedModel()).put("model_key", e.modelKey()).put("stream", e.stream())
                .put("account_id", e.accountId()).put("group_id", e.groupId()).put("outcome", e.outcome())
                .put("status", e.status()).put("error_code", e.errorCode()).put("reason_code", e.reasonCode());
        o.set("attempts", tree(e.attemptsJson()));
        o.set("rejections", tree(e.rejectionsJson()));
        // B-4: normalised; cache_write_tokens stays the sum of both lifetimes for readers from before the split
        o.putObject("usage").put("input_tokens", e.inputTokens()).put("output_tokens", e.outputTokens())
                .put("cache_read_tokens", e.cacheReadTokens())
                .put("cache_write_tokens", e.cacheWrite5mTokens() + e.cacheWrite1hTokens())
                .put("cache_write_5m_tokens", e.cacheWrite5mTokens())
                .put("cache_write_1h_tokens", e.cacheWrite1hTokens())
                .put("reasoning_tokens", e.reasoningTokens());
        // P-7': a stream that ended before any usage frame: its cost is unknown, not zero
        o.put("usage_missing", e.usageMissing());
        o.put("cost", e.costMicros() / 1_000_000.0).put("ttft_ms", e.ttftMs()).put("latency_ms", e.latencyMs())
                .put("queued_ms", e.queuedMs()).put("client_ip", e.clientIp())
                .put("created_at", e.createdAt().toString());
        return o;
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception ex) {
            return JSON.createArrayNode();
        }
    }
}
