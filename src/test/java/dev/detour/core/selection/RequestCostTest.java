package dev.detour.core.selection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
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
        assertEquals(expected, RequestCost.micros(in, out, new ModelPrice(inPrice, outPrice), ratio));
    }

    @org.junit.jupiter.api.Test
    void anUnknownPriceCostsNothing() {
        assertEquals(0, RequestCost.micros(100, 100, null, 1_000_000));
    }
}
