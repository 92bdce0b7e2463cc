package dev.detour.recovery;

import dev.detour.gateway.port.PoolStore.StateChange;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The recovery flow's durable reads and writes. Writes bump the pool revision. */
public interface RecoveryStore {
    /** Every non-archived account that is not revoked, with its recovery rule and the EXISTS column. */
    List<RecoveryCandidate> candidates();

    /** Full reactivation (never paused or revoked); empty when nothing was written. */
    Optional<StateChange> reactivate(long accountId, Instant now);

    /**
     * Explicit-test recovery: account columns only, never sibling model rows. {@code byPerson}
     * lets a person's test bring back a paused account; the healthcheck never does.
     */
    Optional<StateChange> testRecovery(long accountId, boolean byPerson, Instant now);

    /** background probes paused site-wide (stored, so every instance agrees). */
    boolean probesPaused();

    /** Takes or renews the named lease for {@code holder} until {@code expiresAt} (core LeaderTerm decides). */
    LeaseHold holdLease(String name, String holder, Instant now, Instant expiresAt);

    /**
     * Whether the lease is held now, and the expiry its row had before this call (null when there was no
     * row): a new leader starts its first window at the previous holder's last renewal.
     */
    record LeaseHold(boolean held, Instant priorExpiry) {
    }

    void releaseLease(String name, String holder);

    /** The current holder of a lease that has not expired, if any. */
    Optional<String> leaseHolder(String name, Instant now);
}
