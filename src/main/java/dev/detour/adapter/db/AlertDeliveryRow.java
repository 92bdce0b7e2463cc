package dev.detour.adapter.db;

import java.time.Instant;

/** One {@code alert_deliveries} row (W-1 delivery log). */
public record AlertDeliveryRow(long id, long channelId, String channelName, String event, String object, String title,
        String body, Instant occurredAt, int attempts, String status, Integer httpStatus, String error,
        Instant nextRetryAt, Instant createdAt, Instant updatedAt) {
}
