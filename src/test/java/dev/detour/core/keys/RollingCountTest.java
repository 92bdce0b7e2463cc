package dev.detour.core.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class RollingCountTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    @ParameterizedTest(name = "{0}: a step of {1} s")
    @CsvSource({"MINUTE, 1", "FIVE_HOURS, 300", "DAY, 1440", "WEEK, 10080", "MONTH, 43200"})
    void everyWindowIsSixtyStepsOfItsLength(LimitWindow window, long stepSeconds) {
        assertEquals(stepSeconds, window.stepSeconds());
        assertEquals(window.length().toSeconds(), LimitWindow.STEPS * stepSeconds);
    }

    @ParameterizedTest(name = "a count made at 0 is still in the minute after {0} s: {1}")
    @CsvSource({"0, 1", "59, 1", "60, 1", "61, 0", "120, 0"})
    void aCountLeavesTheMinuteBetweenSixtyAndSixtyOneSecondsAfterItWasMade(long after, long expected) {
        Map<Long, Long> buckets = counted(LimitWindow.MINUTE, T0, 1);
        assertEquals(expected, RollingCount.sum(LimitWindow.MINUTE, buckets, T0.plusSeconds(after)));
    }

    @Test
    void aCountMadeLateInItsStepLeavesTheWindowNoLaterThanOneStepAfterTheWindowsLength() {
        Instant late = T0.plusSeconds(299); // the end of a 5 min step of the 5 h window
        Map<Long, Long> buckets = counted(LimitWindow.FIVE_HOURS, late, 7);
        Instant fiveHoursLater = late.plus(Duration.ofHours(5));
        assertEquals(7, RollingCount.sum(LimitWindow.FIVE_HOURS, buckets, fiveHoursLater), "never early");
        assertEquals(0, RollingCount.sum(LimitWindow.FIVE_HOURS, buckets, fiveHoursLater.plusSeconds(1)));
    }

    @Test
    void theWaitUntilBelowTheLimitIsUntilEnoughOfTheOldestCountsHaveLeft() {
        Map<Long, Long> buckets = new HashMap<>();
        buckets.putAll(counted(LimitWindow.MINUTE, T0, 3));
        buckets.putAll(counted(LimitWindow.MINUTE, T0.plusSeconds(10), 2));
        Instant now = T0.plusSeconds(30);
        assertEquals(0, RollingCount.secondsUntilBelow(LimitWindow.MINUTE, buckets, 6, now), "5 is below 6");
        assertEquals(31, RollingCount.secondsUntilBelow(LimitWindow.MINUTE, buckets, 5, now),
                "the 3 made at 0 leave at 61 s");
        assertEquals(41, RollingCount.secondsUntilBelow(LimitWindow.MINUTE, buckets, 2, now),
                "the 2 made at 10 s leave at 71 s");
    }

    private static Map<Long, Long> counted(LimitWindow window, Instant at, long amount) {
        Map<Long, Long> buckets = new HashMap<>();
        buckets.put(RollingCount.bucket(window, at), amount);
        return buckets;
    }
}
