package dev.detour.gateway.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.detour.core.selection.ModelStateKey;
import dev.detour.core.selection.RouteStats;
import dev.detour.core.selection.RouteStatsSource;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

class RouteStatsBookTest {
    @Test
    void outcomesAndP95TtftAreKeptPerAccountAndModelKey() {
        RouteStatsBook book = new RouteStatsBook();
        for (int i = 1; i <= 20; i++) {
            book.record(1, "m", true, i * 10);
        }
        book.record(1, "m", false, null);
        book.record(2, "m", true, 5);
        RouteStats one = book.of(1, "m");
        assertEquals(20, one.successes());
        assertEquals(1, one.failures());
        assertEquals(20, one.ttftSamples());
        assertEquals(190L, one.p95TtftMs(), "19th of 20 sorted samples");
        assertEquals(1, book.of(2, "m").successes());
        assertNull(book.of(1, "other"));
        assertEquals(2, book.snapshot().size());
        assertEquals(one, book.snapshot().get(new ModelStateKey(1, "m")));
    }

    @Test
    void onlyTheRecentWindowCounts() {
        RouteStatsBook book = new RouteStatsBook();
        for (int i = 0; i < RouteStatsBook.WINDOW; i++) {
            book.record(1, "m", false, null);
        }
        for (int i = 0; i < RouteStatsBook.WINDOW; i++) {
            book.record(1, "m", true, 7);
        }
        RouteStats stats = book.of(1, "m");
        assertEquals(RouteStatsBook.WINDOW, stats.successes());
        assertEquals(0, stats.failures(), "old failures have left the window");
        assertEquals(7L, stats.p95TtftMs());
    }

    @Test
    void aFailureAddsNoLatencySample() {
        RouteStatsBook book = new RouteStatsBook();
        book.record(1, "m", false, 900);
        assertNull(book.of(1, "m").p95TtftMs());
        assertEquals(0, book.of(1, "m").ttftSamples());
    }

    @Test
    void theStatsAfterEveryOutcomeEqualASortOfTheWindowOnRandomSequences() {
        for (int seed = 1; seed <= 40; seed++) {
            Random random = new Random(seed);
            RouteStatsBook book = new RouteStatsBook();
            Deque<Boolean> outcomes = new ArrayDeque<>();
            Deque<Long> ttfts = new ArrayDeque<>();
            int length = 1 + random.nextInt(3 * RouteStatsBook.WINDOW);
            int spread = 1 + random.nextInt(seed % 2 == 0 ? 20 : 5_000); // narrow spreads repeat values
            for (int i = 0; i < length; i++) {
                boolean success = random.nextInt(10) < 8;
                Integer ttft = random.nextInt(10) == 0 ? null : random.nextInt(spread);
                book.record(7, "m", success, ttft);
                window(outcomes, success);
                if (success && ttft != null) {
                    window(ttfts, (long) ttft);
                }
                assertEquals(sortedWindowStats(outcomes, ttfts), book.of(7, "m"), "seed " + seed + ", outcome " + i);
            }
        }
    }

    @Test
    void outcomesRecordedAtOnceByManyThreadsAreAllCountedWhenTheyReturn() throws Exception {
        // 8 threads x 12 outcomes = 96, all inside the window: once every thread is back, no outcome may be left
        // queued or lost (one queued while another thread applied is applied by that thread before it lets go)
        for (int round = 0; round < 50; round++) {
            RouteStatsBook book = new RouteStatsBook();
            CyclicBarrier start = new CyclicBarrier(8);
            Thread[] threads = new Thread[8];
            for (int t = 0; t < threads.length; t++) {
                int ttft = t;
                threads[t] = new Thread(() -> {
                    try {
                        start.await();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    for (int i = 0; i < 12; i++) {
                        book.record(3, "m", i % 4 != 0, ttft);
                    }
                });
                threads[t].start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            RouteStats stats = book.of(3, "m");
            assertEquals(72, stats.successes(), "round " + round);
            assertEquals(24, stats.failures(), "round " + round);
            assertEquals(72, stats.ttftSamples(), "round " + round);
            assertEquals(7L, stats.p95TtftMs(), "round " + round + ": the 69th of 72 sorted, one of the nine 7s");
        }
    }

    @Test
    void aViewKeepsTheFirstValueItReadForEachRouteWhileOutcomesArrive() {
        RouteStatsBook book = new RouteStatsBook();
        book.record(1, "m", true, 100);
        RouteStatsSource selection = book.view();
        RouteStats first = selection.of(1, "m");
        assertNull(selection.of(2, "m"), "no outcome yet: unsampled");

        book.record(1, "m", false, null);
        book.record(2, "m", true, 50);

        assertEquals(first, selection.of(1, "m"), "one value per route for the whole selection");
        assertEquals(0, selection.of(1, "m").failures(), "the failure recorded after the read is not seen");
        assertNull(selection.of(2, "m"), "read unsampled once, unsampled for the rest of the selection");
        RouteStatsSource next = book.view();
        assertEquals(1, next.of(1, "m").failures(), "the next selection sees the new outcome");
        assertEquals(1, next.of(2, "m").successes());
    }

    private static <T> void window(Deque<T> window, T value) {
        window.addLast(value);
        if (window.size() > RouteStatsBook.WINDOW) {
            window.removeFirst();
        }
    }

    /** The computation the book made before it kept its times sorted: count, copy, sort, nearest rank. */
    private static RouteStats sortedWindowStats(Deque<Boolean> outcomes, Deque<Long> ttfts) {
        long ok = outcomes.stream().filter(b -> b).count();
        Long p95 = null;
        if (!ttfts.isEmpty()) {
            long[] sorted = ttfts.stream().mapToLong(Long::longValue).toArray();
            Arrays.sort(sorted);
            p95 = sorted[Math.max(0, (int) Math.ceil(sorted.length * 0.95) - 1)];
        }
        return new RouteStats(ok, outcomes.size() - ok, p95, ttfts.size());
    }
}
