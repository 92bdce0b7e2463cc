package dev.detour.core.account;

import dev.detour.core.ValidationException;
import java.util.List;

/**
 * C-6 breaker, per account, off by default: after {@code threshold} consecutive transient failures
 * the account opens for the next step of the ladder. Bounds: threshold 1–100, ladder 1–20 steps of
 * 1–604800 s. Pure (JDK only) so it can move to core/ when the gateway needs it there.
 */
public record BreakerPolicy(boolean enabled, int threshold, List<Integer> ladderSeconds) {
    public static final String ERROR_CODE = "validation.breaker";
    public static final BreakerPolicy DEFAULTS = new BreakerPolicy(false, 3, List.of(1800, 3600, 7200, 21600));

    public BreakerPolicy {
        if (threshold < 1 || threshold > 100) {
            throw invalid("threshold", "threshold must be between 1 and 100, got " + threshold);
        }
        if (ladderSeconds == null || ladderSeconds.isEmpty() || ladderSeconds.size() > 20) {
            throw invalid("ladder_seconds", "ladder_seconds needs 1 to 20 steps");
        }
        for (Integer step : ladderSeconds) {
            if (step == null || step < 1 || step > 604_800) {
                throw invalid("ladder_seconds", "every ladder step is 1 to 604800 seconds, got " + step);
            }
        }
        ladderSeconds = List.copyOf(ladderSeconds);
    }

    /** A partial object keeps the defaults for missing (null) fields, like C-1. */
    public static BreakerPolicy withDefaults(Boolean enabled, Integer threshold, List<Integer> ladderSeconds) {
        return new BreakerPolicy(enabled != null ? enabled : DEFAULTS.enabled,
                threshold != null ? threshold : DEFAULTS.threshold,
                ladderSeconds != null ? ladderSeconds : DEFAULTS.ladderSeconds);
    }

    private static ValidationException invalid(String field, String message) {
        return new ValidationException(ERROR_CODE, "breaker." + field, message);
    }
}
