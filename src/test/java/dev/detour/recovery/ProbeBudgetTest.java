package dev.detour.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** probes per rolling minute and probes at once, both read live from settings. */
class ProbeBudgetTest {
    private static final Instant T = Instant.parse("2026-08-11T10:00:00Z");

    @Test
    void atMostThePerMinuteLimitStartsInAnyRollingMinute() {
        ProbeBudget budget = new ProbeBudget(() -> 30, () -> 1000);
        int started = 0;
        for (int i = 0; i < 100; i++) {
            if (budget.tryAcquire(T.plusMillis(i))) {
                budget.release();
                started++;
            }
        }
        assertEquals(30, started);
        assertFalse(budget.tryAcquire(T.plusSeconds(59)), "still inside the first probe's minute");
        assertTrue(budget.tryAcquire(T.plusSeconds(60)), "the first probe's minute is over");
        assertEquals(30, budget.startedInLastMinute(T.plusSeconds(60)));
    }

    @Test
    void atMostTheConcurrencyLimitRunsAtOnce() {
        ProbeBudget budget = ProbeBudget.defaults();
        assertTrue(budget.tryAcquire(T));
        assertTrue(budget.tryAcquire(T));
        assertTrue(budget.tryAcquire(T));
        assertFalse(budget.tryAcquire(T), "three probes are running");
        assertEquals(3, budget.running());
        budget.release();
        assertTrue(budget.tryAcquire(T), "one finished, one may start");
    }

    @Test
    void aSettingsChangeAppliesToTheNextProbe() {
        AtomicInteger perMinute = new AtomicInteger(1);
        ProbeBudget budget = new ProbeBudget(perMinute::get, () -> 3);
        assertTrue(budget.tryAcquire(T));
        budget.release();
        assertFalse(budget.tryAcquire(T));
        perMinute.set(2);
        assertTrue(budget.tryAcquire(T));
    }
}
