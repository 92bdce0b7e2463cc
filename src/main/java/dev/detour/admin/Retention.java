package dev.detour.admin;

import dev.detour.admin.port.RequestEvents;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * Retention of the request log: events older than the configured number of days (default 30)
 * go, in small batches of their own short transactions, so the table is never locked for long.
 */
public final class Retention {
    public static final int DEFAULT_BATCH = 1_000;

    /** What one purge did. */
    public record Result(long deleted, int batches) {
    }

    private final RequestEvents events;
    private final Supplier<Integer> retentionDays;
    private final int batchSize;

    public Retention(RequestEvents events, Supplier<Integer> retentionDays, int batchSize) {
        this.events = events;
        this.retentionDays = retentionDays;
        this.batchSize = batchSize;
    }

    /** Deletes every event created before {@code now − retention days}, one batch per transaction. */
    public Result purge(Instant now) {
        Instant cutoff = now.minus(Duration.ofDays(retentionDays.get()));
        long deleted = 0;
        int batches = 0;
        while (true) {
            int n = events.deleteOlderThan(cutoff, batchSize);
            deleted += n;
            if (n > 0) {
                batches++;
            }
            if (n < batchSize) {
                return new Result(deleted, batches);
            }
        }
    }
}
