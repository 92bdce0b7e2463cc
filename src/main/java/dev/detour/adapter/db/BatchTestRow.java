package dev.detour.adapter.db;

import java.time.Instant;

/** W-3: one batch_tests row. */
public record BatchTestRow(String id, String model, String instanceId, Instant startedAt) {
}
