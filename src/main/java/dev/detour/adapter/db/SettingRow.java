package dev.detour.adapter.db;

import java.time.Instant;

/** One row of the {@code settings} table. */
public record SettingRow(String name, String value, Instant updatedAt) {
}
