package dev.detour.core.keys;

import dev.detour.core.ValidationException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * L-1: a key's own limits; null = none. Requests and tokens per minute (tokens = input + output, counted
 * when the usage arrives), requests in flight at once, and spend (micros) per rolling window, beside the
 * lifetime spend limit of {@link KeyPolicy}.
 */
public record KeyLimits(Long rpm, Long tpm, Integer concurrency, Map<LimitWindow, Long> spendWindows) {
    public static final KeyLimits NONE = new KeyLimits(null, null, null, Map.of());

    public KeyLimits {
        atLeastOne(rpm, "rpm_limit");
        atLeastOne(tpm, "tpm_limit");
        atLeastOne(concurrency == null ? null : concurrency.longValue(), "concurrency_limit");
        EnumMap<LimitWindow, Long> windows = new EnumMap<>(LimitWindow.class);
        if (spendWindows != null) {
            spendWindows.forEach((w, micros) -> {
                if (w == null || w == LimitWindow.MINUTE) {
                    throw new ValidationException("validation.key_policy.spend_windows", "spend_windows",
                            "spend_windows has the windows 5h, day, week and month");
                }
                if (micros != null) {
                    if (micros < 0) {
                        throw new ValidationException("validation.key_policy.spend_windows", "spend_windows",
                                "spend_windows." + w.wire() + " must be empty or at least 0 micros, got " + micros);
                    }
                    windows.put(w, micros);
                }
            });
        }
        spendWindows = Collections.unmodifiableMap(windows);
    }

    private static void atLeastOne(Long value, String field) {
        if (value != null && value < 1) {
            throw new ValidationException("validation.key_policy." + field, field,
                    field + " must be empty (no limit) or at least 1, got " + value);
        }
    }

    public boolean any() {
        return rpm != null || tpm != null || concurrency != null || !spendWindows.isEmpty();
    }

    /** The limit of {@code kind}, or null when the key has none. */
    public Long limit(LimitKind kind) {
        return switch (kind) {
            case REQUESTS -> rpm;
            case TOKENS -> tpm;
            case CONCURRENT -> concurrency == null ? null : concurrency.longValue();
            default -> spendWindows.get(kind.window());
        };
    }
}
