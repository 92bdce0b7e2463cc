package dev.detour.admin.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TimeChartTest {
    private static final Instant START = Instant.parse("2026-11-29T09:00:00Z");

    @ParameterizedTest
    @CsvSource({"0,1", "1,1", "2,2", "3,5", "7,10", "10,10", "11,20", "180,200", "4363,5000", "1000001,2000000"})
    void theAxisEndsAtTheNextRoundNumber(long max, long top) {
        assertEquals(top, TimeChart.roundUp(max));
    }

    @ParameterizedTest
    @CsvSource({"0,0", "950,950", "1000,1k", "1500,1.5k", "12345,12k", "3200000,3.2M", "5000000,5M"})
    void countsAreShortOnTheAxis(long value, String label) {
        assertEquals(label, TimeChart.compact(value));
    }

    @ParameterizedTest
    @CsvSource({"0,$0", "600,$0.0006", "2500000,$2.5", "150000000,$150", "12340000,$12.34"})
    void moneyIsInDollarsWithTheFewestPlaces(long micros, String label) {
        assertEquals(label, TimeChart.money(micros));
    }

    @Test
    void barsAreScaledToTheRoundedTopAndStandOnTheXAxis() {
        TimeChart chart = TimeChart.of(new long[] {0, 5, 10, 3}, START, Duration.ofHours(1), TimeChart.Unit.REQUESTS);
        assertEquals(10, chart.top());
        assertEquals(4, chart.bars().size());
        SvgChart.Bar full = chart.bars().get(2);
        assertEquals(chart.plotBottom(), full.y() + full.h(), 0.11, "the bar stands on the x axis");
        assertEquals(chart.yTicks().get(2).at(), full.y(), 0.11, "the largest bar reaches the top tick");
        assertEquals(full.h() / 2, chart.bars().get(1).h(), 0.11, "half the value, half the height");
        assertEquals(0, chart.bars().get(0).h(), "an empty bucket has no bar");
        assertEquals(chart.bars().get(2).h() * 0.3, chart.bars().get(3).h(), 0.11);
        assertEquals("11:00: 10", full.label());
    }

    @Test
    void theYAxisIsLabelledInTheChartsUnit() {
        TimeChart chart = TimeChart.of(new long[] {1_800_000}, START, Duration.ofMinutes(1), TimeChart.Unit.MONEY);
        assertEquals(List.of("$0", "$1", "$2"), chart.yTicks().stream().map(TimeChart.Tick::label).toList());
        assertEquals("chart.unit.money", chart.unit().key());
        TimeChart idle = TimeChart.of(new long[3], START, Duration.ofMinutes(1), TimeChart.Unit.MONEY);
        assertEquals(List.of("$0", "$0.005", "$0.01"), idle.yTicks().stream().map(TimeChart.Tick::label).toList(),
                "an idle chart still reads in distinct steps");
        TimeChart quiet = TimeChart.of(new long[] {0, 1}, START, Duration.ofMinutes(1), TimeChart.Unit.REQUESTS);
        assertEquals(List.of("0", "1", "2"), quiet.yTicks().stream().map(TimeChart.Tick::label).toList());
        TimeChart five = TimeChart.of(new long[] {3}, START, Duration.ofMinutes(1), TimeChart.Unit.REQUESTS);
        assertEquals("2", five.yTicks().get(1).label());
        double bottom = five.yTicks().get(0).at();
        double height = bottom - five.yTicks().get(2).at();
        assertEquals(bottom - height * 2 / 5, five.yTicks().get(1).at(), 0.11, "the tick labelled 2 sits at 2 of 5");
        TimeChart tokens = TimeChart.of(new long[] {4363}, START, Duration.ofMinutes(1), TimeChart.Unit.TOKENS);
        assertEquals(List.of("0", "2.5k", "5k"), tokens.yTicks().stream().map(TimeChart.Tick::label).toList());
    }

    @Test
    void timeTicksAreAtMostSixAndReadAsClockOrDate() {
        TimeChart hour = TimeChart.of(new long[60], START, Duration.ofMinutes(1), TimeChart.Unit.REQUESTS);
        assertEquals(List.of("09:00", "09:10", "09:20", "09:30", "09:40", "09:50"),
                hour.xTicks().stream().map(TimeChart.Tick::label).toList());
        TimeChart month = TimeChart.of(new long[30], START, Duration.ofDays(1), TimeChart.Unit.TOKENS);
        assertEquals("11-29", month.xTicks().get(0).label());
        assertEquals("12-04", month.xTicks().get(1).label());
        assertTrue(month.xTicks().size() <= 6);
        assertTrue(month.xTicks().get(1).at() > month.xTicks().get(0).at(), "time runs left to right");
    }

    @Test
    void eachTimeTickAndBarCarriesItsInstantForTheViewersZoneAndOnlyClockChartsAreRewritten() {
        TimeChart hour = TimeChart.of(new long[60], START, Duration.ofMinutes(1), TimeChart.Unit.REQUESTS);
        assertEquals("clock", hour.timeFormat());
        assertEquals(START.plus(Duration.ofMinutes(10)).toString(), hour.xTicks().get(1).datetime());
        assertEquals("09:10", hour.xTicks().get(1).label(), "the text without scripts stays UTC");
        assertEquals(60, hour.barTimes().size());
        assertEquals(START.plus(Duration.ofMinutes(59)).toString(), hour.barTimes().get(59));
        assertEquals(null, hour.yTicks().get(0).datetime(), "a value tick has no time");
        TimeChart month = TimeChart.of(new long[30], START, Duration.ofDays(1), TimeChart.Unit.TOKENS);
        assertEquals("day", month.timeFormat(), "daily bars count UTC days: their dates stay UTC");
    }
}
