package dev.detour.adapter.db;

import java.time.Instant;

/** Aggregated per-account usage since the last flush. */
public record AccountTouch(long accountId, long successDelta, long errorDelta, Instant lastUsedAt) {
}
