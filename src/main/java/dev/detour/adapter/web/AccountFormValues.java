package dev.detour.adapter.web;

import dev.detour.admin.port.AccountConfig;
import dev.detour.core.account.AnthropicBetaPolicy;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import dev.detour.admin.port.StoredAccount;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.RecoveryRule;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The drawer's input values by input name: from the stored account, or — after a validation error —
 * what the operator typed (so nothing is lost). The api key is never a value (write-only).
 */
final class AccountFormValues {
    /** Empty mapping rows offered for adding new mappings without JavaScript. */
    static final int SPARE_MAPPING_ROWS = 2;

    private AccountFormValues() {
    }

    static Map<String, String> blank() {
        Map<String, String> v = new HashMap<>();
        v.put("platform", "openai-compatible");
        v.put("priority", "0");
        v.put("weight", "10");
        v.put("max_in_flight", "0");
        v.put("enabled", "on");
        policies(v, FailurePolicy.DEFAULTS, RecoveryRule.OFF, BreakerPolicy.DEFAULTS, BackoffPolicy.DEFAULTS);
        anthropicBeta(v, AnthropicBetaPolicy.DEFAULTS);
        v.put("bridge_reasoning", "on");
        return v;
    }

    static Map<String, String> of(StoredAccount stored) {
        AccountConfig c = stored.config();
        Map<String, String> v = new HashMap<>();
        v.put("name", c.name());
        v.put("group", stored.groupName());
        v.put("platform", c.platform().wire());
        v.put("base_url", c.baseUrl());
        v.put("priority", Integer.toString(c.priority()));
        v.put("weight", Integer.toString(c.weight()));
        v.put("max_in_flight", Integer.toString(c.maxInFlight()));
        v.put("enabled", c.enabled() ? "on" : null);
        if (c.protocols() != null) { // B-1: only a chosen set is checked; none = the platform's default
            c.protocols().forEach(protocol -> v.put(AccountForms.PROTOCOL_BOX + protocol.wire(), "on"));
        }
        policies(v, c.failurePolicy() == null ? FailurePolicy.DEFAULTS : c.failurePolicy(),
                c.recovery() == null ? RecoveryRule.OFF : c.recovery(),
                c.breaker() == null ? BreakerPolicy.DEFAULTS : c.breaker(),
                c.backoff() == null ? BackoffPolicy.DEFAULTS : c.backoff());
        anthropicBeta(v, c.anthropicBeta() == null ? AnthropicBetaPolicy.DEFAULTS : c.anthropicBeta());
        v.put("bridge_reasoning", c.bridgeReasoning() ? "on" : null);
        return v;
    }

    /** Overlays the submitted fields (checkboxes included: absent = unchecked). */
    static Map<String, String> submitted(Map<String, String> base, HttpServletRequest request, List<String> checkboxes) {
        Map<String, String> v = new HashMap<>(base);
        request.getParameterMap().forEach((k, values) -> v.put(k, values.length == 0 ? "" : values[0]));
        checkboxes.forEach(box -> v.put(box, request.getParameter(box) != null ? "on" : null));
        return v;
    }

    static List<ModelMapping> mappingRows(List<ModelMapping> mappings) {
        List<ModelMapping> rows = new ArrayList<>(mappings);
        for (int i = 0; i < SPARE_MAPPING_ROWS; i++) {
            rows.add(new ModelMapping("", ""));
        }
        return rows;
    }

    /** The rows as typed, blank ones included, after a failed save. */
    static List<ModelMapping> submittedRows(HttpServletRequest request) {
        String[] from = request.getParameterValues("map_from");
        String[] to = request.getParameterValues("map_to");
        List<ModelMapping> rows = new ArrayList<>();
        int n = Math.max(from == null ? 0 : from.length, to == null ? 0 : to.length);
        for (int i = 0; i < n; i++) {
            rows.add(new ModelMapping(from != null && i < from.length ? from[i] : "", to != null && i < to.length ? to[i] : ""));
        }
        return rows.isEmpty() ? mappingRows(List.of()) : rows;
    }

    private static void anthropicBeta(Map<String, String> v, AnthropicBetaPolicy beta) {
        v.put("anthropic_beta.mode", beta.mode());
        v.put("anthropic_beta.flags", String.join(", ", beta.flags()));
    }

    private static void policies(Map<String, String> v, FailurePolicy p, RecoveryRule recovery, BreakerPolicy breaker,
            BackoffPolicy backoff) {
        v.put("failure_policy.retry_count", Integer.toString(p.retryCount()));
        v.put("failure_policy.retry_interval_ms", Integer.toString(p.retryIntervalMs()));
        v.put("failure_policy.cooldown_enabled", p.cooldownEnabled() ? "on" : null);
        v.put("failure_policy.cooldown_seconds", Integer.toString(p.cooldownSeconds()));
        v.put("failure_policy.semantic_error_threshold", Integer.toString(p.semanticErrorThreshold()));
        v.put("failure_policy.error_status_enabled", p.errorStatusEnabled() ? "on" : null);
        v.put("failure_policy.honor_retry_after", p.honorRetryAfter() ? "on" : null);
        v.put("failure_policy.retry_after_cap_seconds", Integer.toString(p.retryAfterCapSeconds()));
        v.put("recovery.mode", recovery.mode());
        v.put("recovery.times", recovery instanceof RecoveryRule.Scheduled s ? String.join(", ", s.wireTimes()) : "");
        v.put("recovery.probe_interval_minutes", Integer.toString(recovery instanceof RecoveryRule.Healthcheck h
                ? h.probeIntervalMinutes() : RecoveryRule.Healthcheck.DEFAULT_MINUTES));
        v.put("breaker.enabled", breaker.enabled() ? "on" : null);
        v.put("breaker.threshold", Integer.toString(breaker.threshold()));
        v.put("breaker.ladder_seconds", breaker.ladderSeconds().stream().map(String::valueOf)
                .collect(Collectors.joining(", ")));
        v.put("backoff.mode", backoff.mode());
        v.put("backoff.base_seconds", Integer.toString(backoff.baseSeconds()));
        v.put("backoff.cap_seconds", Integer.toString(backoff.capSeconds()));
    }
}
