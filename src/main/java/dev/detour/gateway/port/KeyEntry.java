package dev.detour.gateway.port;

import dev.detour.core.keys.KeyPolicy;
import java.time.Instant;

/**
 * A Detour key as the proxy checks it: looked up by SHA-256 of the presented key. {@code configError}
 * (D-4): why its stored policy cannot be read, or null; such a key is refused with {@code key.config_error}.
 */
public record KeyEntry(long id, String name, boolean enabled, Instant expiresAt, KeyPolicy policy, String configError) {
    public KeyEntry(long id, String name, boolean enabled, Instant expiresAt, KeyPolicy policy) {
        this(id, name, enabled, expiresAt, policy, null);
    }

    public boolean usableAt(Instant now) {
        return enabled && (expiresAt == null || expiresAt.isAfter(now));
    }
}
