package dev.detour.core.keys;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * L-1 / L-4: what one key has used, as this instance knows it: per counted kind the buckets read back from
 * the shared count ({@code synced}: every instance's flushed counts) and those this instance counted since
 * ({@code unsynced}), and the requests in flight here; {@code kept}: the windows kept up to date with these maps
 * (null: each read walks them).
 */
public record KeyUsage(Map<LimitKind, Map<Long, Long>> synced, Map<LimitKind, Map<Long, Long>> unsynced,
        int inFlight, KeyWindows kept) {
    public static final KeyUsage NONE = new KeyUsage(Map.of(), Map.of(), 0);

    /** Counts whose windows are walked on every read. */
    public KeyUsage(Map<LimitKind, Map<Long, Long>> synced, Map<LimitKind, Map<Long, Long>> unsynced, int inFlight) {
        this(synced, unsynced, inFlight, null);
    }

    /**
     * One kind's window at {@code now}: each count's sum and the oldest bucket with a count in either
     * ({@code Long.MAX_VALUE} when none). N-8: an admission reads all three under its key's lock, so each map is
     * walked once (it was walked six to eight times per limit, and every request of a key waits for that lock).
     */
    public record Window(long synced, long unsynced, long oldestBucket) {
        public long total() {
            return synced + unsynced;
        }
    }

    public Window window(LimitKind kind, Instant now) {
        return kept == null ? walk(kind, now) : kept.window(this, kind, now);
    }

    /** The window from the maps, each walked once. */
    Window walk(LimitKind kind, Instant now) {
        long first = RollingCount.oldestLive(kind.window(), now);
        long current = RollingCount.bucket(kind.window(), now);
        Part known = Part.of(synced.getOrDefault(kind, Map.of()), first, current);
        Part mine = Part.of(unsynced.getOrDefault(kind, Map.of()), first, current);
        return new Window(known.sum(), mine.sum(), Math.min(known.oldest(), mine.oldest()));
    }

    public long total(LimitKind kind, Instant now) {
        return window(kind, now).total();
    }

    /** One count's buckets inside [first, current]: their sum and the oldest with a positive amount. */
    private record Part(long sum, long oldest) {
        static Part of(Map<Long, Long> buckets, long first, long current) {
            long sum = 0;
            long oldest = Long.MAX_VALUE;
            for (Map.Entry<Long, Long> e : buckets.entrySet()) {
                long bucket = e.getKey();
                if (bucket >= first && bucket <= current) {
                    long amount = e.getValue();
                    sum += amount;
                    if (amount > 0 && bucket < oldest) {
                        oldest = bucket;
                    }
                }
            }
            return new Part(sum, oldest);
        }
    }

    /** Both counts of {@code kind} added up per bucket. */
    public Map<Long, Long> merged(LimitKind kind) {
        Map<Long, Long> out = new HashMap<>(synced.getOrDefault(kind, Map.of()));
        unsynced.getOrDefault(kind, Map.of()).forEach((b, n) -> out.merge(b, n, Long::sum));
        return out;
    }
}
