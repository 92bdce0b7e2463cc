package dev.detour.core.selection;

/** S-7 hard tiers under {@code price}, best first: measured free, no fresh observation, measured paid. */
public enum CostTier {
    MEASURED_FREE, UNKNOWN, MEASURED_PAID
}
