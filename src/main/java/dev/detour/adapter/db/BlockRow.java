package dev.detour.adapter.db;

import java.time.Instant;

/** block_rules as stored (S-10). */
public record BlockRow(Long id, String scope, String value, String reason, String operator, Instant expiresAt,
        Instant createdAt) {
}
