package dev.detour.adapter.db;

import java.time.Instant;

/** The operator-editable columns of {@code accounts}: what insert and updateConfig write. */
public record AccountConfigRow(
        long id,
        String name,
        long groupId,
        String platform,
        String baseUrl,
        String modelMappingsJson,
        String endpointFamilies,
        String protocols,
        int priority,
        int weight,
        boolean enabled,
        Long quotaRemaining,
        int maxInFlight,
        String failurePolicyJson,
        String recoveryJson,
        String breakerJson,
        String backoffJson,
        String anthropicBetaJson,
        String notes,
        Boolean bridgeReasoning,
        Instant now) {
}
