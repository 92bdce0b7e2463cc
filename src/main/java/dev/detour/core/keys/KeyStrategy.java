package dev.detour.core.keys;

import dev.detour.core.ValidationException;

/** How a key ranks the eligible routes (SPEC S-3); see {@code dev.detour.core.selection.Strategies}. */
public enum KeyStrategy {
    PRIORITY, PRICE, STABILITY, LATENCY, BALANCED, MANUAL;

    public String wire() {
        return name().toLowerCase();
    }

    /** Null or blank means the default, {@code priority}. */
    public static KeyStrategy fromWire(String value) {
        if (value == null || value.isBlank()) {
            return PRIORITY;
        }
        for (KeyStrategy s : values()) {
            if (s.wire().equals(value.trim())) {
                return s;
            }
        }
        throw new ValidationException("validation.key_policy.strategy", "strategy",
                "strategy must be one of priority, price, stability, latency, balanced, manual");
    }
}
