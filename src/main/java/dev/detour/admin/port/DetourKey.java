package dev.detour.admin.port;

import java.time.Instant;

/** A Detour key as stored: only the SHA-256 of the key, plus a hint (K-1); the policy as its JSON document. */
public record DetourKey(
        Long id,
        String name,
        String ownerLabel,
        String keyHash,
        String keyHint,
        boolean enabled,
        Instant expiresAt,
        String policyJson,
        long spentMicros,
        Instant createdAt,
        Instant updatedAt,
        Instant lastUsedAt) {
}
