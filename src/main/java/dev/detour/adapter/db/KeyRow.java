package dev.detour.adapter.db;

import java.time.Instant;

/** detour_keys as stored: only the SHA-256 of the key, plus a hint. */
public record KeyRow(
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

    public KeyRow withId(long newId) {
        return new KeyRow(newId, name, ownerLabel, keyHash, keyHint, enabled, expiresAt, policyJson, spentMicros,
                createdAt, updatedAt, lastUsedAt);
    }
}
