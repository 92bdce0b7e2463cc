package dev.detour.adapter.db;

import java.time.Instant;

/** The admin token digest (hex SHA-256) to store in {@code settings}. */
public record AdminTokenRow(String hexDigest, Instant updatedAt) {
}
