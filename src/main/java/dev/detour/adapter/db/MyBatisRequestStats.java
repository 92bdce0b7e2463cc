package dev.detour.adapter.db;

import dev.detour.admin.port.RequestStats;
import java.time.Instant;
import java.util.List;

/** U-5 aggregates by SQL over {@code request_events} on the created_at index; one session a window. */
public final class MyBatisRequestStats implements RequestStats {
    private final Database database;

    public MyBatisRequestStats(Database database) {
        this.database = database;
    }

    @Override
    public WindowStats window(Instant since, Instant until, boolean hourly) {
        return database.read(s -> {
            StatsMapper m = s.getMapper(StatsMapper.class);
            return new WindowStats(bucket(m.totals(since, until)),
                    m.buckets(since, until, hourly).stream().map(MyBatisRequestStats::bucket).toList(),
                    percentile(m, since, until, false, 50), percentile(m, since, until, false, 95),
                    percentile(m, since, until, true, 50), percentile(m, since, until, true, 95));
        });
    }

    @Override
    public List<FailingAccountCount> topFailing(Instant since, Instant until, int limit) {
        return database.read(s -> s.getMapper(StatsMapper.class).topFailing(since, until, limit)).stream()
                .map(r -> new FailingAccountCount(r.accountId(), r.failures(), r.lastAt(), r.lastErrorCode()))
                .toList();
    }

    /** Nearest-rank percentile: the ⌈p·n⌉-th smallest value; null without data. */
    static Integer percentile(StatsMapper m, Instant since, Instant until, boolean ttft, int p) {
        long n = m.countTimed(since, until, ttft);
        if (n == 0) {
            return null;
        }
        long rank = (long) Math.ceil(p / 100.0 * n);
        return m.timedAt(since, until, ttft, Math.max(0, rank - 1));
    }

    private static Bucket bucket(StatsBucket b) {
        return new Bucket(b.bucket(), b.requests(), b.successes(), b.tokens(), b.costMicros());
    }
}
