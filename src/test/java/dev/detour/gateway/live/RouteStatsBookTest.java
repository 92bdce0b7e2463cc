package dev.detour.gateway.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.detour.core.selection.ModelStateKey;
import dev.detour.core.selection.RouteStats;
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
}
