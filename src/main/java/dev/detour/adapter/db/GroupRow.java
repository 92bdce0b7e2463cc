package dev.detour.adapter.db;

import java.time.Instant;

/** One row of {@code groups_}; column order = component order (MyBatis constructor auto-mapping). */
public record GroupRow(
        long id,
        String name,
        long ratioPpm,
        String color,
        String haltPolicy,
        Instant haltedUntil,
        int haltStreak,
        String haltReason,
        Instant createdAt,
        Instant updatedAt) {
}
