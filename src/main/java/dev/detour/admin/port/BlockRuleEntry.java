package dev.detour.admin.port;

import java.time.Instant;

/** An S-10 block rule as the operator set it (block_rules). */
public record BlockRuleEntry(Long id, String scope, String value, String reason, String operator, Instant expiresAt,
        Instant createdAt) {
}
