package dev.detour.admin.port;

import java.time.Instant;

/** One entry of the audit trail ({@code audit_log}); before/after JSON never holds a secret (U-6). */
public record AuditEntry(
        long id,
        String actor,
        String action,
        String targetType,
        String targetId,
        String beforeJson,
        String afterJson,
        Instant createdAt) {
}
