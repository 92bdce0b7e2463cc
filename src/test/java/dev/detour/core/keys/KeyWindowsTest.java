package dev.detour.core.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyWindowsTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final LimitKind[] COUNTED = {LimitKind.REQUESTS, LimitKind.TOKENS, LimitKind.SPEND_5H,
        LimitKind.SPEND_DAY, LimitKind.SPEND_WEEK, LimitKind.SPEND_MONTH};

    @Test
    void aKeptWindowIsReadWithoutWalkingTheMapsAgainAndAddsWhatIsCounted() {
        Map<LimitKind, Map<Long, Long>> synced = counts();
        Map<LimitKind, Map<Long, Long>> mine = counts();
        KeyWindows windows = new KeyWindows();
        KeyUsage usage = new KeyUsage(synced, mine, 0, windows);
        long now = RollingCount.bucket(LimitKind.REQUESTS.window(), T0);
        synced.get(LimitKind.REQUESTS).put(now - 10, 4L);
        assertEquals(new KeyUsage.Window(4, 0, now - 10), usage.window(LimitKind.REQUESTS, T0), "walked once");

        synced.get(LimitKind.REQUESTS).put(now - 20, 100L); // behind its back: a kept window does not see it
        count(mine, windows, LimitKind.REQUESTS, T0, 1);
        assertEquals(new KeyUsage.Window(4, 1, now - 10), usage.window(LimitKind.REQUESTS, T0), "kept, plus the count");

        windows.forget(); // a sync: walked again
        assertEquals(new KeyUsage.Window(104, 1, now - 20), usage.window(LimitKind.REQUESTS, T0));
        assertEquals(new KeyUsage.Window(104, 1, now - 20), usage.window(LimitKind.REQUESTS, T0.plusMillis(999)),
                "the same bucket: still kept");
        assertEquals(new KeyUsage.Window(4, 1, now - 10), usage.window(LimitKind.REQUESTS, T0.plusSeconds(41)),
                "the window moved past the oldest count: walked again");
    }

    /** Counts, syncs and clock steps in any order: a kept window always equals the one walked from the maps. */
    @Test
    void keptWindowsAlwaysEqualTheWalkedOnes() {
        for (long seed = 1; seed <= 200; seed++) {
            Random random = new Random(seed);
            Map<LimitKind, Map<Long, Long>> synced = counts();
            Map<LimitKind, Map<Long, Long>> mine = counts();
            KeyWindows windows = new KeyWindows();
            Instant now = T0;
            for (int step = 0; step < 400; step++) {
                int op = random.nextInt(10);
                LimitKind kind = COUNTED[random.nextInt(COUNTED.length)];
                if (op < 5) { // a count, its time up to 3 s before now (usage queued until the lock's next holder)
                    count(mine, windows, kind, now.minusMillis(random.nextInt(3000)), 1 + random.nextInt(50));
                } else if (op < 7) {
                    now = now.plusMillis(random.nextInt(random.nextBoolean() ? 1500 : 400_000));
                } else if (op == 7) { // a sync: this instance's counts joined the shared ones
                    mine.forEach((k, buckets) -> buckets.forEach((b, n) -> synced.get(k).merge(b, n, Long::sum)));
                    mine.values().forEach(Map::clear);
                    windows.forget();
                } else {
                    String at = "seed " + seed + " step " + step + " " + kind;
                    assertEquals(new KeyUsage(synced, mine, 0).window(kind, now),
                            new KeyUsage(synced, mine, 0, windows).window(kind, now), at);
                }
            }
        }
    }

    /** As KeyLimiter counts: into this instance's bucket of {@code at}, the kept window told. */
    private static void count(Map<LimitKind, Map<Long, Long>> mine, KeyWindows windows, LimitKind kind, Instant at,
            long amount) {
        long bucket = RollingCount.bucket(kind.window(), at);
        windows.counted(kind, bucket, amount);
        mine.get(kind).merge(bucket, amount, Long::sum);
    }

    private static Map<LimitKind, Map<Long, Long>> counts() {
        Map<LimitKind, Map<Long, Long>> out = new EnumMap<>(LimitKind.class);
        for (LimitKind kind : COUNTED) {
            out.put(kind, new HashMap<>());
        }
        return out;
    }
}
