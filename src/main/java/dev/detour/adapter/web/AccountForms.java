package dev.detour.adapter.web;

import dev.detour.admin.port.AccountPatch;
import dev.detour.core.ValidationException;
import dev.detour.core.account.AnthropicBetaPolicy;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.Protocols;
import dev.detour.core.account.RecoveryRule;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * U-4 drawer forms → {@link AccountPatch}: one patch per tab, touching only that tab's fields. Input
 * names are the API's field names ({@code failure_policy.cooldown_seconds}, …) so a
 * {@link ValidationException#field()} lands next to its input. Number typos get the field's code.
 */
final class AccountForms {
    private AccountForms() {
    }

    /** Basics tab; a blank api key keeps the stored one (write-only field). */
    static AccountPatch basics(HttpServletRequest r) {
        String apiKey = blankToNull(r.getParameter("api_key"));
        return new AccountPatch(r.getParameter("name"), blankToNull(r.getParameter("group")), null,
                r.getParameter("platform"), r.getParameter("base_url"), apiKey, mappings(r), null, protocols(r),
                integer(r, "priority"), integer(r, "weight"), r.getParameter("enabled") != null,
                integer(r, "max_in_flight"), null, null, null, null, null, null, null);
    }

    /** C-1: blank numbers keep the defaults; unchecked boxes are false. */
    static AccountPatch failurePolicy(HttpServletRequest r) {
        String p = "failure_policy.";
        FailurePolicy policy = FailurePolicy.withDefaults(integer(r, p + "retry_count"),
                integer(r, p + "retry_interval_ms"), r.getParameter(p + "cooldown_enabled") != null,
                integer(r, p + "cooldown_seconds"), integer(r, p + "semantic_error_threshold"),
                r.getParameter(p + "error_status_enabled") != null, r.getParameter(p + "honor_retry_after") != null,
                integer(r, p + "retry_after_cap_seconds"));
        return only(policy, null, null, null);
    }

    /** times are normalized by the rule (03:00, de-duplicated, sorted). */
    static AccountPatch recovery(HttpServletRequest r) {
        String mode = String.valueOf(r.getParameter("recovery.mode"));
        RecoveryRule rule = switch (mode) {
            case "off" -> RecoveryRule.OFF;
            case "scheduled" -> RecoveryRule.scheduled(list(r.getParameter("recovery.times")));
            case "healthcheck" -> {
                Integer minutes = integer(r, "recovery.probe_interval_minutes");
                yield new RecoveryRule.Healthcheck(minutes != null ? minutes : RecoveryRule.Healthcheck.DEFAULT_MINUTES);
            }
            default -> throw new ValidationException("validation.recovery_mode", "recovery.mode",
                    "recovery mode must be off, scheduled or healthcheck");
        };
        return only(null, rule, null, null);
    }

    /** C-6 breaker and backoff. */
    static AccountPatch breaker(HttpServletRequest r) {
        List<Integer> ladder = new ArrayList<>();
        for (String step : list(r.getParameter("breaker.ladder_seconds"))) {
            ladder.add(parse(step, "breaker.ladder_seconds", BreakerPolicy.ERROR_CODE));
        }
        BreakerPolicy breaker = BreakerPolicy.withDefaults(r.getParameter("breaker.enabled") != null,
                integer(r, "breaker.threshold", BreakerPolicy.ERROR_CODE), ladder.isEmpty() ? null : ladder);
        BackoffPolicy backoff = BackoffPolicy.withDefaults(blankToNull(r.getParameter("backoff.mode")),
                integer(r, "backoff.base_seconds", BackoffPolicy.ERROR_CODE),
                integer(r, "backoff.cap_seconds", BackoffPolicy.ERROR_CODE));
        return only(null, null, breaker, backoff);
    }

    /**
     * B-5 compatibility: the anthropic-beta policy (flags one per line or separated by commas) and B-6's
     * "send reasoning parameters through the bridge" box.
     */
    static AccountPatch compat(HttpServletRequest r) {
        AnthropicBetaPolicy beta = AnthropicBetaPolicy.withDefaults(blankToNull(r.getParameter("anthropic_beta.mode")),
                list(r.getParameter("anthropic_beta.flags")));
        return new AccountPatch(null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null, null, beta, r.getParameter("bridge_reasoning") != null);
    }

    private static AccountPatch only(FailurePolicy policy, RecoveryRule recovery, BreakerPolicy breaker,
            BackoffPolicy backoff) {
        return new AccountPatch(null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, policy, recovery, breaker, backoff, null);
    }

    /** B-1: one checkbox per protocol ({@code protocol.<wire>}); none checked = the platform's default. */
    static Optional<Set<EndpointFamily>> protocols(HttpServletRequest r) {
        Set<EndpointFamily> checked = EnumSet.noneOf(EndpointFamily.class);
        for (EndpointFamily protocol : Protocols.CONVERSATIONAL) {
            if (r.getParameter(PROTOCOL_BOX + protocol.wire()) != null) {
                checked.add(protocol);
            }
        }
        return checked.isEmpty() ? Optional.empty() : Optional.of(checked);
    }

    static final String PROTOCOL_BOX = "protocol.";

    /** Rows of from/to inputs; rows left blank on both sides are dropped (that is how a row is removed). */
    static ModelMappings mappings(HttpServletRequest r) {
        String[] from = orEmpty(r.getParameterValues("map_from"));
        String[] to = orEmpty(r.getParameterValues("map_to"));
        List<ModelMapping> entries = new ArrayList<>();
        for (int i = 0; i < Math.max(from.length, to.length); i++) {
            String f = i < from.length ? from[i].strip() : "";
            String t = i < to.length ? to[i].strip() : "";
            if (!f.isEmpty() || !t.isEmpty()) {
                entries.add(new ModelMapping(f, t));
            }
        }
        return ModelMappings.of(entries);
    }

    static List<String> list(String raw) {
        return raw == null ? List.of() : Arrays.stream(raw.split("[,，\\s]+")).filter(s -> !s.isEmpty()).toList();
    }

    private static Integer integer(HttpServletRequest r, String field) {
        return integer(r, field, "validation." + field);
    }

    private static Integer integer(HttpServletRequest r, String field, String code) {
        String raw = blankToNull(r.getParameter(field));
        return raw == null ? null : parse(raw, field, code);
    }

    private static int parse(String raw, String field, String code) {
        try {
            return Integer.parseInt(raw.strip());
        } catch (NumberFormatException e) {
            throw new ValidationException(code.startsWith("validation.failure_policy")
                    ? FailurePolicy.ERROR_CODE : code, field, field + " must be a whole number, got '" + raw + "'");
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private static String[] orEmpty(String[] values) {
        return values == null ? new String[0] : values;
    }

    static Optional<String> param(HttpServletRequest r, String name) {
        return Optional.ofNullable(blankToNull(r.getParameter(name)));
    }
}
