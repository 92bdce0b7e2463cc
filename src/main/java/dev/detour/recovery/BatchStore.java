package dev.detour.recovery;

import java.util.Optional;

/**
 * W-3: where batch tests live (MariaDB, shared by every instance), so any instance reads a batch's live
 * lines and they outlast a restart. Only the instance that runs a batch writes it.
 */
public interface BatchStore {
    /** A batch as stored: its lines in the order asked and the registry id of the instance that runs it. */
    record StoredBatch(BatchTests.Batch batch, String instanceId) {
    }

    /** Stores a new batch with all its lines, then keeps only the newest {@code keep} batches. */
    void insert(BatchTests.Batch batch, String instanceId, int keep);

    /** Writes one line as it stands now ({@code line}: its place in the batch, from 0). */
    void updateLine(String batchId, int line, BatchTests.Result result);

    Optional<StoredBatch> find(String batchId);
}
