package dev.detour.gateway;

import dev.detour.core.keys.KeyPolicy;
import java.time.Instant;

/** A Detour key as the proxy checks it: looked up by SHA-256 of the presented key. */
public record KeyEntry(long id, String name, boolean enabled, Instant expiresAt, KeyPolicy policy) {
    public boolean usableAt(Instant now) {
        return enabled && (expiresAt == null || expiresAt.isAfter(now));
    }
}
