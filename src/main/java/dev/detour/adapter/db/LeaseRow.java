package dev.detour.adapter.db;

import java.time.Instant;

/** One row of {@code leases}: who holds the named lease and until when. */
public record LeaseRow(String name, String holder, Instant expiresAt) {
}
