package dev.detour.admin.port;

import java.time.Instant;
import java.util.List;

/**
 * U-8 / U-9: usage aggregated by SQL over the request log in a window [since, until), overall (keyId null) or for
 * one key, in few rows: sums by (model, key, account, group) and a latency histogram per dimension, which
 * {@link Breakdowns} adds up (one range scan each instead of a sort per percentile and breakdown). Errors are failures
 * and client errors (a cancelled request is the client's choice, not an error).
 */
public interface UsageStats {
    /** What a breakdown groups by: the request_events column behind it. */
    enum Dimension {
        MODEL("requested_model"), KEY("key_id"), ACCOUNT("account_id"), GROUP("group_id");

        private final String column;

        Dimension(String column) {
            this.column = column;
        }

        /** The grouped column (a fixed name, never user input: it is spliced into the SQL). */
        public String column() {
            return column;
        }

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One value of a dimension as the pages show it: {@code value} is the model name or the id as text (null: no key,
     * no account);
     * tokens by class (B-4: input without cache reads, cache writes of both lifetimes together); nearest-rank latency
     * percentiles; {@code queued} how many waited in L-2's queue and {@code queuedMs} their total wait.
     */
    record Line(String value, long requests, long errors, long inputTokens, long outputTokens, long cacheReadTokens,
            long cacheWriteTokens, long costMicros, Integer p50LatencyMs, Integer p95LatencyMs, long queued,
            long queuedMs) {
        public long tokens() {
            return inputTokens + outputTokens + cacheReadTokens + cacheWriteTokens;
        }
    }

    /** One time bucket ({@code bucket} = whole steps since the window start). */
    record Bucket(long bucket, long requests, long errors, long tokens, long costMicros) {
    }

    /** The sums of one (model, key, account, group) combination: every breakdown and the totals add these up. */
    record Slice(String model, Long keyId, Long accountId, Long groupId, long requests, long errors, long inputTokens,
            long outputTokens, long cacheReadTokens, long cacheWriteTokens, long costMicros, long queued, long queuedMs) {
    }

    /**
     * How many requests of one value of a dimension took {@code latencyMs}: exact below a second, in steps of 10 ms
     * below 10 s and of 100 ms above (so the rows stay few on a big window), for nearest-rank percentiles.
     */
    record Latency(String value, int latencyMs, long count) {
    }

    /** The window's sums by (model, key, account, group). */
    List<Slice> slices(Instant since, Instant until, Long keyId);

    /** The window's latencies by value of {@code dimension}, in value then latency order. */
    List<Latency> latencies(Dimension dimension, Instant since, Instant until, Long keyId);

    /** Buckets of {@code stepSeconds}; empty buckets are absent. */
    List<Bucket> series(Instant since, Instant until, long stepSeconds, Long keyId);
}
