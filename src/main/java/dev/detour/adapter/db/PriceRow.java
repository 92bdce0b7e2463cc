package dev.detour.adapter.db;

import java.time.Instant;

/** model_prices: micros per million tokens (S-3). */
public record PriceRow(String model, long inputMicrosPerM, long outputMicrosPerM, Instant updatedAt) {
}
