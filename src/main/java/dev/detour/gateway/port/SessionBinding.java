package dev.detour.gateway.port;

import java.time.Instant;

/** S-6: one row of session_bindings; {@code sessionHash} is the hex SHA-256 of the session id. */
public record SessionBinding(long keyId, String sessionHash, String model, long accountId, Instant expiresAt) {
}
