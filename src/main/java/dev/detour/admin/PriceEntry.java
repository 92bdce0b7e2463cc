package dev.detour.admin;

import java.time.Instant;

/** One model's base price (S-3, model_prices): micros per million tokens. */
public record PriceEntry(String model, long inputMicrosPerM, long outputMicrosPerM, Instant updatedAt) {
}
