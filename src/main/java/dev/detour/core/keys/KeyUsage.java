package dev.detour.core.keys;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * L-1 / L-4: what one key has used, as this instance knows it: per counted kind the buckets read back from
 * the shared count ({@code synced}: every instance's flushed counts) and those this instance counted since
 * ({@code unsynced}), and the requests in flight here.
 */
public record KeyUsage(Map<LimitKind, Map<Long, Long>> synced, Map<LimitKind, Map<Long, Long>> unsynced,
        int inFlight) {
    public static final KeyUsage NONE = new KeyUsage(Map.of(), Map.of(), 0);

    public long synced(LimitKind kind, Instant now) {
        return RollingCount.sum(kind.window(), synced.getOrDefault(kind, Map.of()), now);
    }

    public long unsynced(LimitKind kind, Instant now) {
        return RollingCount.sum(kind.window(), unsynced.getOrDefault(kind, Map.of()), now);
    }

    public long total(LimitKind kind, Instant now) {
        return synced(kind, now) + unsynced(kind, now);
    }

    /** The oldest bucket inside the window with a count in either map, {@code Long.MAX_VALUE} when none has one. */
    public long oldestLiveBucket(LimitKind kind, Instant now) {
        return Math.min(RollingCount.oldestCounted(kind.window(), synced.getOrDefault(kind, Map.of()), now),
                RollingCount.oldestCounted(kind.window(), unsynced.getOrDefault(kind, Map.of()), now));
    }

    /** Both counts of {@code kind} added up per bucket. */
    public Map<Long, Long> merged(LimitKind kind) {
        Map<Long, Long> out = new HashMap<>(synced.getOrDefault(kind, Map.of()));
        unsynced.getOrDefault(kind, Map.of()).forEach((b, n) -> out.merge(b, n, Long::sum));
        return out;
    }
}
