package dev.detour.core.selection;

import java.time.Instant;
import java.util.Map;

/**
 * S-4: when the gateway last picked an account (min pick gap, idle bonus), or null when it has not. Read for
 * every account of a tier on every request, so it is looked up by the primitive id: a {@code Map<Long, Instant>}
 * boxed each id above 127 per lookup, a tenth of a 200-account pool's request CPU (docs/performance.md).
 */
@FunctionalInterface
public interface LastPicks {
    LastPicks NONE = accountId -> null;

    Instant of(long accountId);

    /** {@link #of} in {@link EpochNanos}: what ranking reads for every route of a tier ({@link EpochNanos#NEVER}: none). */
    default long nanosOf(long accountId) {
        return EpochNanos.of(of(accountId));
    }

    /** Fixed picks (tests, tables). */
    static LastPicks of(Map<Long, Instant> picks) {
        return picks == null ? NONE : picks::get;
    }
}
