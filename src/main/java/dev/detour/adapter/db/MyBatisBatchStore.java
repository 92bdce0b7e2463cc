package dev.detour.adapter.db;

import dev.detour.recovery.BatchStore;
import dev.detour.recovery.BatchTests;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@link BatchStore} on MariaDB: a batch and its lines in one transaction, then one line per write. */
public final class MyBatisBatchStore implements BatchStore {
    private final Database database;
    private final Clock clock;

    public MyBatisBatchStore(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    @Override
    public void insert(BatchTests.Batch batch, String instanceId, int keep) {
        database.inTransaction(s -> {
            BatchTestMapper m = s.getMapper(BatchTestMapper.class);
            m.insertBatch(new BatchTestRow(batch.id(), batch.model(), instanceId, batch.startedAt()));
            List<BatchLineRow> lines = new ArrayList<>();
            for (int i = 0; i < batch.results().size(); i++) {
                lines.add(BatchLineRow.of(batch.id(), i, batch.results().get(i), clock.instant()));
            }
            m.insertLines(lines);
            List<String> old = m.selectOlderThanNewest(keep);
            if (!old.isEmpty()) {
                m.deleteLines(old);
                m.deleteBatches(old);
            }
            return null;
        });
    }

    @Override
    public void updateLine(String batchId, int line, BatchTests.Result result) {
        database.inTransaction(s -> s.getMapper(BatchTestMapper.class)
                .updateLine(BatchLineRow.of(batchId, line, result, clock.instant())));
    }

    @Override
    public Optional<StoredBatch> find(String batchId) {
        return database.read(s -> {
            BatchTestMapper m = s.getMapper(BatchTestMapper.class);
            BatchTestRow row = m.selectBatch(batchId);
            if (row == null) {
                return Optional.empty();
            }
            List<BatchTests.Result> lines = m.selectLines(batchId).stream().map(BatchLineRow::result).toList();
            return Optional.of(new StoredBatch(new BatchTests.Batch(row.id(), row.model(), row.startedAt(), lines),
                    row.instanceId()));
        });
    }
}
