package dev.detour.core.selection;

import java.time.Duration;
import java.time.Instant;

/**
 * Instants as nanoseconds since the epoch, for ranking's primitive columns (N-10): a tier's last uses are compared
 * and subtracted for every route on every request, and an {@link Instant} is an object to fetch per route. Values
 * are kept within ±(2^62 − 1) ns (1824 … 2116), so a difference of two never overflows; an instant beyond that
 * ranks like the bound (an idle bonus long saturated, a use still ahead). {@link #NEVER} (no use) sorts below all.
 */
public final class EpochNanos {
    /** No instant (an account never used): below every value {@link #of} returns, so a {@code max} skips it. */
    public static final long NEVER = Long.MIN_VALUE;
    private static final long LIMIT = (1L << 62) - 1;
    private static final long LIMIT_SECONDS = LIMIT / 1_000_000_000L;

    private EpochNanos() {
    }

    /** The instant in epoch nanoseconds, clamped to the range; {@link #NEVER} for null. */
    public static long of(Instant instant) {
        if (instant == null) {
            return NEVER;
        }
        long seconds = instant.getEpochSecond();
        if (seconds >= LIMIT_SECONDS) {
            return LIMIT;
        }
        if (seconds <= -LIMIT_SECONDS) {
            return -LIMIT;
        }
        return seconds * 1_000_000_000L + instant.getNano();
    }

    /** Back to an instant; null for {@link #NEVER}. */
    public static Instant toInstant(long nanos) {
        return nanos == NEVER ? null : Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L),
                Math.floorMod(nanos, 1_000_000_000L));
    }

    /** A span in nanoseconds, clamped to the range (a longer one behaves alike against any two instants). */
    static long span(Duration duration) {
        long seconds = duration.getSeconds();
        if (seconds >= LIMIT_SECONDS) {
            return LIMIT;
        }
        return seconds <= -LIMIT_SECONDS ? -LIMIT : duration.toNanos();
    }
}
