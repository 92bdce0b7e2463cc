package dev.detour.adapter.db;

import java.time.Instant;

/** One {@code alert_channels} row (W-1): secrets sealed, hints as JSON. */
public record AlertChannelRow(long id, String name, String kind, boolean enabled, String events, int suppressSeconds,
        String settingsJson, String secretsSealed, String secretHints, Instant createdAt, Instant updatedAt) {
}
