package dev.detour.adapter.db;

import java.time.Instant;

/**
 * One row of {@code accounts} plus its group's name (joined). Column order in
 * AccountMapper.xml = component order (MyBatis constructor auto-mapping). JSON columns are kept
 * raw here; {@code AccountRows} decodes them (D-4: never failing). The group's ratio and halt policy
 * come along because an account is only as readable as its group.
 */
public record AccountRow(
        long id,
        String name,
        long groupId,
        String platform,
        String baseUrl,
        String apiKeyCipher,
        String apiKeyHint,
        String modelMappingsJson,
        String endpointFamilies,
        int priority,
        int weight,
        boolean enabled,
        boolean archived,
        String status,
        Long quotaRemaining,
        int maxInFlight,
        String failurePolicyJson,
        String recoveryJson,
        String breakerJson,
        String backoffJson,
        String anthropicBetaJson,
        String notes,
        int transientFailureCount,
        Instant nextRetryAt,
        Instant cooldownUntil,
        String lastFailureKind,
        String lastFailureMessage,
        String lastFailureResponseJson,
        int semanticFailureStreakCount,
        String semanticFailureStreakFingerprint,
        int breakerFailureStreak,
        int breakerStep,
        Instant breakerOpenUntil,
        int backoffStreak,
        long successCount,
        long errorCount,
        Instant lastUsedAt,
        long revision,
        Instant createdAt,
        Instant updatedAt,
        String groupName,
        long groupRatioPpm,
        String groupHaltPolicy,
        String protocols,
        Boolean bridgeReasoning) {
}
