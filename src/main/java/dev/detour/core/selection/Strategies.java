package dev.detour.core.selection;

import dev.detour.core.keys.KeyStrategy;

/** The S-3 ranking for each key strategy. Session and cache affinity (S-6/S-8) apply after it, in the pipeline. */
public final class Strategies {
    private Strategies() {
    }

    public static Strategy forKey(KeyStrategy strategy) {
        return switch (strategy) {
            case PRIORITY -> PriorityStrategy.INSTANCE;
            case PRICE -> PriceStrategy.INSTANCE;
            case STABILITY -> StabilityStrategy.INSTANCE;
            case LATENCY -> LatencyStrategy.INSTANCE;
            case BALANCED -> BalancedStrategy.INSTANCE;
            case MANUAL -> ManualStrategy.INSTANCE;
        };
    }
}
