package dev.detour.gateway.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.selection.EpochNanos;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** S-4's last pick per account without boxing: the same answers as a map, across growth and concurrent picks. */
class PickTimesTest {
    private static final Instant T0 = Instant.parse("2026-12-03T12:00:00Z");

    @Test
    void anAccountNeverPickedHasNoTimeAndAPickIsReadBackAndReplacedByTheNext() {
        PickTimes picks = new PickTimes();
        assertNull(picks.of(7));

        picks.picked(7, T0);
        picks.picked(7, T0.plusMillis(5));

        assertEquals(T0.plusMillis(5), picks.of(7));
        assertNull(picks.of(8));
        // ranking reads the same pick as a primitive, to the nanosecond
        picks.picked(7, T0.plusNanos(123_456_789));
        assertEquals(EpochNanos.of(T0.plusNanos(123_456_789)), picks.nanosOf(7));
        assertEquals(EpochNanos.NEVER, picks.nanosOf(8));
    }

    @Test
    void thousandsOfAccountsInAnyOrderAnswerAsAMapWould() {
        Random random = new Random(2026);
        List<Long> ids = new ArrayList<>();
        for (long id = 1; id <= 3_000; id++) {
            ids.add(id);
        }
        ids.add(Long.MAX_VALUE);
        ids.add(1L << 40); // ids far apart land anywhere in the table
        ids.add(0L);
        ids.add(-5L);
        Collections.shuffle(ids, random);
        PickTimes picks = new PickTimes();
        Map<Long, Instant> expected = new HashMap<>();
        for (int round = 0; round < 3; round++) {
            for (long id : ids) {
                if (random.nextInt(3) > 0) {
                    Instant at = T0.plusMillis(random.nextInt(1_000_000));
                    picks.picked(id, at);
                    expected.put(id, at);
                }
            }
        }

        for (long id : ids) {
            assertEquals(expected.get(id), picks.of(id), "account " + id);
        }
        assertNull(picks.of(3_001));
    }

    @Test
    void concurrentFirstPicksWhileTheTableGrowsAreAllKept() throws InterruptedException {
        PickTimes picks = new PickTimes();
        int threads = 8;
        int perThread = 500;
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long first = 1 + (long) t * perThread;
            Thread thread = new Thread(() -> {
                for (long id = first; id < first + perThread; id++) {
                    picks.picked(id, T0.plusMillis(id));
                    picks.of(id - 1); // readers run beside the writers
                }
            });
            running.add(thread);
            thread.start();
        }
        for (Thread thread : running) {
            thread.join();
        }

        for (long id = 1; id <= (long) threads * perThread; id++) {
            // a first pick takes the lock, so growth never drops one (a later pick of a known account could be)
            assertEquals(T0.plusMillis(id), picks.of(id), "account " + id);
        }
        Instant again = T0.plusSeconds(60);
        for (long id : Set.of(1L, 2_000L, 4_000L)) {
            picks.picked(id, again);
            assertNotNull(picks.of(id));
            assertTrue(picks.of(id).equals(again));
        }
    }
}
