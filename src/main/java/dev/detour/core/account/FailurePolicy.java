package dev.detour.core.account;

import dev.detour.core.ValidationException;

/**
 * Per-account failure handling (SPEC C-1, default revised by C-1'). Bounds: retry_count 0–10, retry_interval_ms 0–60000,
 * cooldown_seconds 1–86400, semantic_error_threshold 1–1000, retry_after_cap_seconds 1–86400.
 */
public record FailurePolicy(
        int retryCount,
        int retryIntervalMs,
        boolean cooldownEnabled,
        int cooldownSeconds,
        int semanticErrorThreshold,
        boolean errorStatusEnabled,
        boolean honorRetryAfter,
        int retryAfterCapSeconds) {

    public static final String ERROR_CODE = "validation.route_credential_failure_policy";
    /**
     * C-1' defaults of a new account and of missing fields in a partial object: cooldown on (10 s). The
     * desktop anchor defaults it off (one user, one machine, who watches the panel); a shared gateway
     * must steer away from a repeat offender by itself, and F-6 streaks only flip with cooldown on.
     */
    public static final FailurePolicy DEFAULTS = new FailurePolicy(2, 200, true, 10, 10, true, true, 1800);

    /**
     * C-1 (the seed's and the desktop anchor's defaults, cooldown off): what a stored policy that never
     * stated cooldown_enabled had — stored accounts keep theirs (C-1').
     */
    public static final FailurePolicy SEED_DEFAULTS = new FailurePolicy(2, 200, false, 10, 10, true, true, 1800);

    public FailurePolicy {
        check(retryCount, 0, 10, "retry_count");
        check(retryIntervalMs, 0, 60_000, "retry_interval_ms");
        check(cooldownSeconds, 1, 86_400, "cooldown_seconds");
        check(semanticErrorThreshold, 1, 1000, "semantic_error_threshold");
        check(retryAfterCapSeconds, 1, 86_400, "retry_after_cap_seconds");
    }

    /** A partial object keeps the defaults for missing (null) fields (C-1). */
    public static FailurePolicy withDefaults(Integer retryCount, Integer retryIntervalMs, Boolean cooldownEnabled,
            Integer cooldownSeconds, Integer semanticErrorThreshold, Boolean errorStatusEnabled,
            Boolean honorRetryAfter, Integer retryAfterCapSeconds) {
        FailurePolicy d = DEFAULTS;
        return new FailurePolicy(
                retryCount != null ? retryCount : d.retryCount,
                retryIntervalMs != null ? retryIntervalMs : d.retryIntervalMs,
                cooldownEnabled != null ? cooldownEnabled : d.cooldownEnabled,
                cooldownSeconds != null ? cooldownSeconds : d.cooldownSeconds,
                semanticErrorThreshold != null ? semanticErrorThreshold : d.semanticErrorThreshold,
                errorStatusEnabled != null ? errorStatusEnabled : d.errorStatusEnabled,
                honorRetryAfter != null ? honorRetryAfter : d.honorRetryAfter,
                retryAfterCapSeconds != null ? retryAfterCapSeconds : d.retryAfterCapSeconds);
    }

    private static void check(int value, int min, int max, String field) {
        if (value < min || value > max) {
            throw new ValidationException(ERROR_CODE, "failure_policy." + field,
                    field + " must be between " + min + " and " + max + ", got " + value);
        }
    }
}
