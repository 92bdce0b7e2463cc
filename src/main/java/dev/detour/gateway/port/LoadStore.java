package dev.detour.gateway.port;

import dev.detour.core.selection.GroupView;
import java.time.Instant;

/** Durable load-protection state: session bindings (S-6) and group halts (S-9), shared by every instance. */
public interface LoadStore {
    SessionBinding findBinding(long keyId, String sessionHash, String model);

    void upsertBinding(SessionBinding binding);

    /** Deletes the binding only while it still points at {@code accountId} (another instance may have moved it). */
    void deleteBinding(long keyId, String sessionHash, String model, long accountId);

    int deleteExpiredBindings(Instant now);

    /** Writes the group's halt columns and bumps the pool revision; returns the group afterwards. */
    GroupView writeHalt(GroupView group, Instant until, int streak, String reason, Instant now);
}
