package dev.detour.core.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.ValidationException;
import dev.detour.core.account.RecoveryRule;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** R-3 scheduled mode: a configured local time in (previous tick, this tick], days enumerated. */
class ScheduledTriggerTest {

    @ParameterizedTest(name = "{3}: times {0}, ({1}, {2}] → {4}")
    @CsvSource(delimiter = '|', textBlock = """
            00:00       | 2026-08-11T23:59:50 | 2026-08-12T00:00:20 | across midnight fires                 | true
            15:00       | 2026-08-11T16:00:00 | 2026-08-13T10:00:00 | asleep for days fires                 | true
            15:00       | 2026-08-11T14:59:30 | 2026-08-11T15:00:00 | equal to this tick fires              | true
            15:00       | 2026-08-11T15:00:00 | 2026-08-11T15:00:30 | equal to the previous tick does not   | false
            15:00       | 2026-08-11T15:00:01 | 2026-08-11T15:00:31 | just after the time does not          | false
            15:00       | 2026-08-11T14:59:00 | 2026-08-11T14:59:30 | just before the time does not         | false
            04:05,23:30 | 2026-08-11T23:29:40 | 2026-08-11T23:30:10 | the second of two times fires         | true
            23:59       | 2026-08-11T23:59:50 | 2026-08-12T00:00:20 | yesterday's time after prev does not  | false
            00:00       | 2026-08-11T00:00:20 | 2026-08-11T00:00:50 | after midnight the next tick does not | false
            10:00       | 2026-08-01T11:00:00 | 2026-08-20T09:00:00 | nineteen days asleep fires            | true
            10:00       | 2026-08-11T10:00:30 | 2026-08-11T10:00:00 | a clock going back never fires        | false
            10:00       | 2026-08-11T10:00:00 | 2026-08-11T10:00:00 | no time passed never fires            | false
            """)
    void firesWhenAConfiguredTimeFallsInTheHalfOpenInterval(String times, String previous, String current,
            String what, boolean fires) {
        RecoveryRule.Scheduled rule = RecoveryRule.scheduled(Arrays.asList(times.split(",")));
        assertEquals(fires, ScheduledTrigger.fires(rule.times(), LocalDateTime.parse(previous),
                LocalDateTime.parse(current)), what);
    }

    @Test
    void aLongSleepFiresOnceNotOncePerMissedDay() {
        RecoveryRule.Scheduled rule = RecoveryRule.scheduled(List.of("15:00"));
        LocalDateTime asleep = LocalDateTime.parse("2026-08-11T16:00:00");
        LocalDateTime awake = LocalDateTime.parse("2026-08-13T10:00:00");
        assertTrue(ScheduledTrigger.fires(rule.times(), asleep, awake));
        // the next tick after waking looks only at its own 30 seconds: nothing is replayed
        assertFalse(ScheduledTrigger.fires(rule.times(), awake, awake.plusSeconds(30)));
    }

    @Test
    void timesAreNormalizedZeroPaddedDeduplicatedAndSorted() {
        RecoveryRule.Scheduled rule = RecoveryRule.scheduled(List.of("23:30", "3:00", "03:00", " 04:05 "));
        assertEquals(List.of("03:00", "04:05", "23:30"), rule.wireTimes());
        assertTrue(ScheduledTrigger.fires(rule.times(), LocalDateTime.parse("2026-08-11T02:59:50"),
                LocalDateTime.parse("2026-08-11T03:00:20")), "3:00 and 03:00 are the same time");
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', textBlock = """
            24:00 | validation.recovery_times
            3:0   | validation.recovery_times
            ab:cd | validation.recovery_times
            12:60 | validation.recovery_times
            """)
    void badTimesAreRefusedWithAStableCode(String raw, String code) {
        ValidationException e = org.junit.jupiter.api.Assertions.assertThrows(ValidationException.class,
                () -> RecoveryRule.scheduled(List.of(raw)));
        assertEquals(code, e.code());
    }

    @Test
    void noTimesAtAllIsRefused() {
        ValidationException e = org.junit.jupiter.api.Assertions.assertThrows(ValidationException.class,
                () -> RecoveryRule.scheduled(List.of()));
        assertEquals("validation.recovery_times_required", e.code());
        assertFalse(ScheduledTrigger.fires(List.of(), LocalDateTime.parse("2026-08-11T00:00:00"),
                LocalDateTime.parse("2026-08-12T00:00:00")));
    }
}
