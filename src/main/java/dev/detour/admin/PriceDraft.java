package dev.detour.admin;

/**
 * One model's price as sent (S-3), before {@link PriceAdmin} checks it. A null amount is one that
 * was missing or not a whole number.
 */
public record PriceDraft(String model, Long inputMicrosPerM, Long outputMicrosPerM) {
}
