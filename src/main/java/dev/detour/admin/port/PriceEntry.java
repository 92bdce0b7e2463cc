package dev.detour.admin.port;

import java.time.Instant;

/**
 * One model's base price (S-3, model_prices): micros per million tokens. B-4: the cache classes are null
 * when not set, and then priced from the input price ({@link dev.detour.core.selection.ModelPrice}).
 */
public record PriceEntry(String model, long inputMicrosPerM, long outputMicrosPerM, Long cacheReadMicrosPerM,
        Long cacheWrite5mMicrosPerM, Long cacheWrite1hMicrosPerM, Instant updatedAt) {
}
