package dev.detour.core.selection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.usage.TokenUsage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;

class RequestCostTest {
    @ParameterizedTest(name = "{0} in + {1} out at {2}/{3} per M × {4} ppm = {5} micros")
    @CsvSource({
        "12, 5, 2000000, 6000000, 500000, 27",
        "1000000, 0, 1000000, 0, 1000000, 1000000",
        "1000000, 1000000, 1000000, 2000000, 20000, 60000",
        "0, 0, 5000000, 5000000, 1000000, 0",
        "3, 0, 1, 0, 1000000, 0",
    })
    void costIsTokensTimesPriceTimesRatioInMicros(long in, long out, long inPrice, long outPrice, long ratio,
            long expected) {
        assertEquals(expected, RequestCost.micros(tokens(in, out), new ModelPrice(inPrice, outPrice), ratio));
    }

    @Test
    void anUnknownPriceCostsNothing() {
        assertEquals(0, RequestCost.micros(tokens(100, 100), null, 1_000_000));
    }

    /** The table in src/test/resources/usage/cost-per-class.csv: one class at a time, defaults, then all at once. */
    @ParameterizedTest(name = "{0}: in {1}, out {2}, read {3}, write 5m {4}, write 1h {5}, reasoning {6} = {8} micros")
    @CsvFileSource(resources = "/usage/cost-per-class.csv", delimiter = '|')
    void costIsTheSumOfEachClassTimesItsPrice(String what, long input, long output, long read, long write5m,
            long write1h, long reasoning, String cachePrices, long expected) {
        ModelPrice price = "S".equals(cachePrices) ? new ModelPrice(3_000_000, 15_000_000, 300_000L, 3_750_000L,
                6_000_000L) : new ModelPrice(3_000_000, 15_000_000);
        assertEquals(expected, RequestCost.micros(new TokenUsage(input, output, read, write5m, write1h, reasoning),
                price, 1_000_000), what);
    }

    @Test
    void theGroupRatioScalesEveryClass() {
        ModelPrice price = new ModelPrice(1_000_000, 2_000_000, 100_000L, 1_250_000L, 2_000_000L);
        TokenUsage usage = new TokenUsage(1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000, 0);
        assertEquals(6_350_000, RequestCost.micros(usage, price, 1_000_000));
        assertEquals(3_175_000, RequestCost.micros(usage, price, 500_000));
    }

    private static TokenUsage tokens(long input, long output) {
        return new TokenUsage(input, output, 0, 0, 0, 0);
    }
}
