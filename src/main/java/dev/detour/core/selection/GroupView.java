package dev.detour.core.selection;

import java.time.Instant;

/** What selection needs of a group: its price ratio (ppm, 1,000,000 = 1.0x) and halt (S-9). */
public record GroupView(long id, long ratioPpm, Instant haltedUntil) {
    public static final long RATIO_ONE = 1_000_000L;

    public static GroupView plain(long id) {
        return new GroupView(id, RATIO_ONE, null);
    }

    public boolean haltedAt(Instant now) {
        return haltedUntil != null && haltedUntil.isAfter(now);
    }
}
