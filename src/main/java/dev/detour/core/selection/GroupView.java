package dev.detour.core.selection;

import java.time.Instant;

/**
 * What selection needs of a group: its price ratio (ppm, 1,000,000 = 1.0x) and halt (S-9); plus,
 * for the gateway's halt rules and /status, its name, whether halts are on, the halt streak and
 * the reason of the current halt.
 */
public record GroupView(long id, long ratioPpm, Instant haltedUntil, String name, boolean haltPolicyOn,
        int haltStreak, String haltReason) {
    public static final long RATIO_ONE = 1_000_000L;

    /** The original three fields: halt policy off, no streak. */
    public GroupView(long id, long ratioPpm, Instant haltedUntil) {
        this(id, ratioPpm, haltedUntil, null, false, 0, null);
    }

    public static GroupView plain(long id) {
        return new GroupView(id, RATIO_ONE, null);
    }

    public boolean haltedAt(Instant now) {
        return haltedUntil != null && haltedUntil.isAfter(now);
    }

    /** S-9: a success has something to clear. */
    public boolean haltTraces() {
        return haltedUntil != null || haltStreak > 0 || haltReason != null;
    }

    public GroupView withHalt(Instant until, int streak, String reason) {
        return new GroupView(id, ratioPpm, until, name, haltPolicyOn, streak, reason);
    }
}
