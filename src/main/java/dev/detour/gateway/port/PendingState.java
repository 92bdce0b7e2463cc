package dev.detour.gateway.port;

import dev.detour.core.failure.Failure;
import java.time.Instant;

/**
 * D-1 / D-2: a state change applied in memory and not yet durable, as data, so that the local journal
 * can keep it across a crash during a database outage and the next run can write it (each write is
 * idempotent: a failure or success by its id in the store's ledger, a halt by absolute values).
 */
public sealed interface PendingState {
    record FailureSeen(String id, long accountId, String modelKey, Failure failure, Instant at) implements PendingState {
    }

    record SuccessSeen(String id, long accountId, String modelKey, Instant at) implements PendingState {
    }

    record GroupHalt(long groupId, Instant until, int streak, String reason, Instant at) implements PendingState {
    }
}
