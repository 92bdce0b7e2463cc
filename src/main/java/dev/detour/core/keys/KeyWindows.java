package dev.detour.core.keys;

import java.time.Instant;
import java.util.Arrays;

/**
 * N-8: one key's {@link KeyUsage.Window} per counted kind, kept as its counts arrive instead of walked again on
 * every admission (each limit's window is up to 61 buckets in each of two maps, walked under the key's lock that
 * every request of the key waits for). An entry holds for the bucket it was computed at: a new bucket (the window
 * moved), a count in a bucket after it, or {@link #forget} (the shared counts were replaced by a sync) makes the
 * next read walk the maps again, once. Not thread-safe: the key's lock guards it together with the maps.
 */
public final class KeyWindows {
    private static final long NONE = Long.MIN_VALUE;
    private final long[] validAt = new long[LimitKind.values().length];
    private final long[] synced = new long[validAt.length];
    private final long[] unsynced = new long[validAt.length];
    private final long[] oldest = new long[validAt.length];

    public KeyWindows() {
        Arrays.fill(validAt, NONE);
    }

    /** {@code kind}'s window of {@code usage} at {@code now}: kept, or walked from the maps and kept. */
    KeyUsage.Window window(KeyUsage usage, LimitKind kind, Instant now) {
        int i = kind.ordinal();
        long current = RollingCount.bucket(kind.window(), now);
        if (validAt[i] != current) {
            KeyUsage.Window walked = usage.walk(kind, now);
            validAt[i] = current;
            synced[i] = walked.synced();
            unsynced[i] = walked.unsynced();
            oldest[i] = walked.oldestBucket();
            return walked;
        }
        return new KeyUsage.Window(synced[i], unsynced[i], oldest[i]);
    }

    /** This instance counted {@code amount} (> 0) of {@code kind} in {@code bucket}: the kept window adds it. */
    public void counted(LimitKind kind, long bucket, long amount) {
        int i = kind.ordinal();
        long current = validAt[i];
        if (current == NONE || bucket < current - LimitWindow.STEPS) {
            return; // nothing kept, or a bucket already out of the kept window
        }
        if (bucket > current) {
            validAt[i] = NONE; // the window moved on: walked again at the next read
            return;
        }
        unsynced[i] += amount;
        oldest[i] = Math.min(oldest[i], bucket);
    }

    /** The counts changed other than by {@link #counted} (a sync): every window is walked again when next read. */
    public void forget() {
        Arrays.fill(validAt, NONE);
    }
}
