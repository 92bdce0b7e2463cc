package dev.detour.admin.port;

import java.time.Instant;
import java.util.List;

/** U-5: aggregates over the request log in a window [since, until), for the console home. */
public interface RequestStats {
    /** Request counts, tokens and cost of one bucket (minutes or hours since the window start). */
    record Bucket(long bucket, long requests, long successes, long tokens, long costMicros) {
    }

    /** A window's totals, its buckets and nearest-rank percentiles (null without data). */
    record WindowStats(Bucket totals, List<Bucket> buckets, Integer p50LatencyMs, Integer p95LatencyMs,
            Integer p50TtftMs, Integer p95TtftMs) {
    }

    /** An account with failed requests in a window: how many, when last, and the last error code. */
    record FailingAccountCount(long accountId, long failures, Instant lastAt, String lastErrorCode) {
    }

    WindowStats window(Instant since, Instant until, boolean hourly);

    List<FailingAccountCount> topFailing(Instant since, Instant until, int limit);
}
