package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MoneyTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"0|$0.00", "1234|$0.0012", "999999|$1.0000", "1000000|$1.00",
            "12345678901|$12,345.68", "-2500000|-$2.50"})
    void spendReadsWithItsUnitAndSensiblePlaces(long micros, String shown) {
        assertEquals(shown, Money.format(micros));
    }
}
