package dev.detour.adapter.db;

import java.time.Instant;

/** A model key an account answered successfully (C-3 denominator for pass-through accounts). */
public record ServedModel(long accountId, String modelKey, Instant lastServedAt) {
}
