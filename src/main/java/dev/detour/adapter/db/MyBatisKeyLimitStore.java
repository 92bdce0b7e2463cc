package dev.detour.adapter.db;

import dev.detour.core.keys.LimitKind;
import dev.detour.gateway.port.KeyLimitStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@link KeyLimitStore} on MariaDB: every instance adds to the same buckets ({@code amount = amount + …}),
 * so the rows hold the cluster's totals. Rows are written in key order, so two instances' batches take
 * their row locks in the same order and never deadlock each other; Galera's commit conflicts are retried
 * by the transaction helper.
 */
public final class MyBatisKeyLimitStore implements KeyLimitStore {
    private static final Comparator<KeyLimitCountRow> KEY_ORDER = Comparator.comparingLong(KeyLimitCountRow::keyId)
            .thenComparing(KeyLimitCountRow::kind).thenComparingLong(KeyLimitCountRow::bucket);
    private final Database database;

    public MyBatisKeyLimitStore(Database database) {
        this.database = database;
    }

    @Override
    public void add(List<Count> deltas) {
        List<KeyLimitCountRow> rows = new ArrayList<>(deltas.size());
        deltas.forEach(d -> rows.add(new KeyLimitCountRow(d.keyId(), d.kind().suffix(), d.bucket(), d.amount())));
        rows.sort(KEY_ORDER);
        database.inTransaction(s -> s.getMapper(KeyLimitMapper.class).addCounts(rows));
    }

    @Override
    public List<Count> all() {
        List<Count> out = new ArrayList<>();
        for (KeyLimitCountRow row : database.read(s -> s.getMapper(KeyLimitMapper.class).selectCounts())) {
            LimitKind kind = LimitKind.bySuffix(row.kind());
            if (kind != null && kind.counted()) { // a kind a newer version added is not ours to count
                out.add(new Count(row.keyId(), kind, row.bucket(), row.amount()));
            }
        }
        return out;
    }

    @Override
    public void forgetBefore(LimitKind kind, long bucket) {
        database.inTransaction(s -> s.getMapper(KeyLimitMapper.class).deleteCountsBefore(kind.suffix(), bucket));
    }
}
