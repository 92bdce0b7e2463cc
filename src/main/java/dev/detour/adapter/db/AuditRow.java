package dev.detour.adapter.db;

import java.time.Instant;

/** One row of {@code audit_log}; before/after JSON never holds a secret (U-6). */
public record AuditRow(
        long id,
        String actor,
        String action,
        String targetType,
        String targetId,
        String beforeJson,
        String afterJson,
        Instant createdAt) {
}
