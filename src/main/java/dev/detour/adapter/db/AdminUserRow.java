package dev.detour.adapter.db;

import java.time.Instant;

/** One row of admin_users: a console sign-in (U-1). */
public record AdminUserRow(Long id, String username, String passwordHash, Instant createdAt, Instant lastLoginAt) {
}
