package dev.detour.admin;

/**
 * One model's price as sent (S-3), before {@link PriceAdmin} checks it. A null input or output amount is
 * one that was missing or not a whole number; a null cache-class amount (B-4) is one left to its default.
 */
public record PriceDraft(String model, Long inputMicrosPerM, Long outputMicrosPerM, Long cacheReadMicrosPerM,
        Long cacheWrite5mMicrosPerM, Long cacheWrite1hMicrosPerM) {

    public PriceDraft(String model, Long inputMicrosPerM, Long outputMicrosPerM) {
        this(model, inputMicrosPerM, outputMicrosPerM, null, null, null);
    }
}
