package dev.detour.admin.port;

import java.time.Instant;

/**
 * An account group as stored ({@code groups_}): its ratio, colour, halt policy and halt state (S-9).
 * Component order = column order (MyBatis constructor auto-mapping).
 */
public record AccountGroup(
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
