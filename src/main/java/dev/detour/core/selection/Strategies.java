package dev.detour.core.selection;

import dev.detour.core.keys.KeyStrategy;

/** The ranking for a key's strategy. Only {@code priority} exists yet; the others use it until their issue lands. */
public final class Strategies {
    private Strategies() {
    }

    public static Strategy forKey(KeyStrategy strategy) {
        return switch (strategy) {
            case PRIORITY, PRICE, STABILITY, LATENCY, BALANCED, MANUAL -> PriorityStrategy.INSTANCE;
        };
    }
}
