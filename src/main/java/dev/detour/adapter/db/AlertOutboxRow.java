package dev.detour.adapter.db;

import java.time.Instant;

/** One {@code alert_outbox} row: a pool alert recorded with its state change, not fanned out yet (W-1). */
public record AlertOutboxRow(long id, String event, String object, String title, String body, Instant occurredAt) {
}
