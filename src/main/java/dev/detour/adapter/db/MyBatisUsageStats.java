package dev.detour.adapter.db;

import dev.detour.admin.port.UsageStats;
import java.time.Instant;
import java.util.List;

/** U-8 / U-9 usage aggregated in SQL (sums by combination, latency histograms, time buckets); one session a call. */
public final class MyBatisUsageStats implements UsageStats {
    private final Database database;

    public MyBatisUsageStats(Database database) {
        this.database = database;
    }

    @Override
    public List<Slice> slices(Instant since, Instant until, Long keyId) {
        return database.read(s -> s.getMapper(UsageMapper.class).slices(since, until, keyId));
    }

    @Override
    public List<Latency> latencies(Dimension dimension, Instant since, Instant until, Long keyId) {
        return database.read(s -> s.getMapper(UsageMapper.class).latencies(dimension.column(), since, until, keyId));
    }

    @Override
    public List<Bucket> series(Instant since, Instant until, long stepSeconds, Long keyId) {
        return database.read(s -> s.getMapper(UsageMapper.class).series(since, until, stepSeconds, keyId));
    }
}
