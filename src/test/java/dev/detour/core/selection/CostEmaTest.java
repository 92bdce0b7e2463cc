package dev.detour.core.selection;

import static dev.detour.core.selection.SelectionFixtures.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** SPEC S-7 (seed pool-mechanism): EMA α = 0.3 per (account, model), valid 6 h, three tiers. */
class CostEmaTest {
    static final Duration TTL = CostEma.DEFAULT_TTL;

    @ParameterizedTest(name = "previous {0} ({1} h old) + observed {2} → {3}")
    @CsvSource(nullValues = "NULL", value = {
        "NULL, 0, 100, 100",
        "100, 1, 0, 70",
        "100, 1, 200, 130",
        "10, 1, 10, 10",
        "1, 1, 0, 0",
        "100, 7, 50, 50",
        "100, 6, 50, 50"})
    void theEmaWeighsTheNewObservationThreeTenthsAndRestartsAfterExpiry(Long previous, int hoursOld, long observed,
            long expected) {
        CostEma before = previous == null ? null : new CostEma(previous, NOW.minus(Duration.ofHours(hoursOld)));

        CostEma after = CostEma.observe(before, observed, NOW, TTL);

        assertEquals(expected, after.microsPerKTokens());
        assertEquals(NOW, after.updatedAt());
    }

    @Test
    void aRunOfFreeObservationsReachesMeasuredFree() {
        CostEma ema = CostEma.observe(null, 100, NOW, TTL);
        int steps = 0;
        while (ema.microsPerKTokens() > 0) {
            ema = CostEma.observe(ema, 0, NOW, TTL);
            steps++;
        }
        assertEquals(11, steps);
        assertEquals(CostTier.MEASURED_FREE, CostEma.tierOf(ema, NOW, TTL));
    }

    @ParameterizedTest(name = "ema {0}, {1} min old → {2}")
    @CsvSource(nullValues = "NULL", value = {
        "NULL, 0, UNKNOWN",
        "0, 10, MEASURED_FREE",
        "5, 10, MEASURED_PAID",
        "0, 359, MEASURED_FREE",
        "0, 360, UNKNOWN",
        "5, 400, UNKNOWN"})
    void theTierIsFreeOrPaidWhileFreshAndUnknownOtherwise(Long ema, int minutesOld, CostTier expected) {
        Instant at = NOW.minus(Duration.ofMinutes(minutesOld));
        CostEma entry = ema == null ? null : new CostEma(ema, at);

        assertEquals(expected, CostEma.tierOf(entry, NOW, TTL));
    }

    @ParameterizedTest(name = "{0} micros for {1} tokens → {2} per k")
    @CsvSource({"2000, 500, 4000", "0, 500, 0", "7, 0, 0", "1, 3000, 0"})
    void aUsageReportBecomesMicrosPerThousandTokens(long cost, long tokens, long expected) {
        assertEquals(expected, CostEma.perKTokens(cost, tokens));
    }
}
