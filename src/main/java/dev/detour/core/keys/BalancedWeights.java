package dev.detour.core.keys;

import dev.detour.core.ValidationException;

/**
 * S-3 {@code balanced}: how much stability, price and latency count, in whole percent. The three
 * must each be 0–100 and sum to exactly 100 (seed smart-router §7.9); default 45 / 40 / 15.
 */
public record BalancedWeights(int stability, int price, int latency) {
    public static final BalancedWeights DEFAULT = new BalancedWeights(45, 40, 15);

    public BalancedWeights {
        boolean inRange = stability >= 0 && price >= 0 && latency >= 0;
        if (!inRange || stability + price + latency != 100) {
            throw new ValidationException("validation.key_policy.balanced_weights", "balanced_weights",
                    "balanced weights must be non-negative and sum to 100, got stability " + stability
                            + ", price " + price + ", latency " + latency);
        }
    }
}
