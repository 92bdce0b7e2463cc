package dev.detour.core.account;

import dev.detour.core.ValidationException;

/**
 * C-6 account cooldown growth: {@code fixed} (the failure policy's window) or {@code exponential}
 * (base × 2^(streak−1), capped). Bounds: base 1–86400 s, cap base–604800 s. Pure (JDK only).
 */
public record BackoffPolicy(String mode, int baseSeconds, int capSeconds) {
    public static final String ERROR_CODE = "validation.backoff";
    public static final String FIXED = "fixed";
    public static final String EXPONENTIAL = "exponential";
    public static final BackoffPolicy DEFAULTS = new BackoffPolicy(FIXED, 600, 7200);

    public BackoffPolicy {
        if (!FIXED.equals(mode) && !EXPONENTIAL.equals(mode)) {
            throw invalid("mode", "mode must be fixed or exponential");
        }
        if (baseSeconds < 1 || baseSeconds > 86_400) {
            throw invalid("base_seconds", "base_seconds must be between 1 and 86400, got " + baseSeconds);
        }
        if (capSeconds < baseSeconds || capSeconds > 604_800) {
            throw invalid("cap_seconds", "cap_seconds must be between base_seconds and 604800, got " + capSeconds);
        }
    }

    public boolean exponential() {
        return EXPONENTIAL.equals(mode);
    }

    /** Missing fields keep defaults; a missing cap never falls below the given base. */
    public static BackoffPolicy withDefaults(String mode, Integer baseSeconds, Integer capSeconds) {
        int base = baseSeconds != null ? baseSeconds : DEFAULTS.baseSeconds;
        int cap = capSeconds != null ? capSeconds : Math.max(DEFAULTS.capSeconds, base);
        return new BackoffPolicy(mode != null ? mode : DEFAULTS.mode, base, cap);
    }

    private static ValidationException invalid(String field, String message) {
        return new ValidationException(ERROR_CODE, "backoff." + field, message);
    }
}
