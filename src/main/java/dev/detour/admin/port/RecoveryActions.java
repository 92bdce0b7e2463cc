package dev.detour.admin.port;

import dev.detour.gateway.port.PoolStore.StateChange;
import java.time.Instant;
import java.util.Optional;

/** An operator's recovery moves, written in the caller's transaction. */
public interface RecoveryActions {
    /**
     * Full reactivation of one account under its row lock; empty when it does not exist or had
     * nothing to recover.
     */
    Optional<StateChange> reactivate(long accountId, Instant now);

    void setProbesPaused(boolean paused, Instant now);
}
