package dev.detour.core.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.security.FailureDelays.Failures;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** X-3 the pure rule: failures × now → wait. */
class FailureDelaysTest {
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final FailureDelays PER_NAME = FailureDelays.PER_ADDRESS_AND_NAME;
    private static final FailureDelays PER_ADDRESS = FailureDelays.PER_ADDRESS;

    @ParameterizedTest(name = "{0} failures on one name → wait {1} s, {0} from one address → wait {2} s")
    @CsvSource({
            "0, 0, 0",
            "1, 0, 0",
            "4, 0, 0",
            "5, 1, 0",
            "6, 2, 0",
            "7, 4, 0",
            "9, 16, 0",
            "10, 32, 1",
            "11, 64, 2",
            "14, 512, 16",
            "15, 900, 32", // 2^10 s would be 1024: the cap is 15 min
            "19, 900, 512",
            "20, 900, 900",
            "100, 900, 900",
            "65536, 900, 900"})
    void delaysStartAfterTheFreeFailuresDoubleAndStopAtTheCap(int count, long perNameSeconds, long perAddressSeconds) {
        assertEquals(Duration.ofSeconds(perNameSeconds), PER_NAME.delayAfter(count));
        assertEquals(Duration.ofSeconds(perAddressSeconds), PER_ADDRESS.delayAfter(count));
    }

    @Test
    void theWaitRunsFromTheLastFailureAndEndsWithIt() {
        Failures five = new Failures(5, T0);
        assertEquals(Duration.ofSeconds(1), PER_NAME.waitBefore(five, T0));
        assertEquals(Duration.ofMillis(600), PER_NAME.waitBefore(five, T0.plusMillis(400)));
        assertEquals(Duration.ZERO, PER_NAME.waitBefore(five, T0.plusSeconds(1)));
        assertEquals(Duration.ZERO, PER_NAME.waitBefore(null, T0), "no failures on record: never a wait");
        assertEquals(Duration.ZERO, PER_NAME.waitBefore(new Failures(4, T0), T0), "four failures are free");
    }

    @Test
    void eachFailureCountsOneMoreFromNow() {
        Failures first = PER_NAME.afterFailure(null, T0);
        assertEquals(new Failures(1, T0), first);
        Failures second = PER_NAME.afterFailure(first, T0.plusSeconds(3));
        assertEquals(new Failures(2, T0.plusSeconds(3)), second);
    }

    @ParameterizedTest(name = "20 failures, then {0} min quiet → counts as {1}")
    @CsvSource({
            "0, 20",
            "59, 20",
            "60, 10",
            "119, 10",
            "120, 5",
            "180, 2",
            "240, 1",
            "300, 0",
            "100000, 0"})
    void everyQuietHourHalvesTheCount(long quietMinutes, int count) {
        Failures twenty = new Failures(20, T0);
        Instant later = T0.plus(Duration.ofMinutes(quietMinutes));
        assertEquals(count, PER_NAME.countAt(twenty, later));
        assertEquals(count == 0, PER_NAME.forgotten(twenty, later));
        assertEquals(new Failures(count + 1, later), PER_NAME.afterFailure(twenty, later));
    }

    @Test
    void anOwnerWhoMistypedFiveTimesIsForgivenAfterAQuietHour() {
        Failures five = new Failures(5, T0);
        Instant hourLater = T0.plus(Duration.ofHours(1));
        assertEquals(Duration.ZERO, PER_NAME.waitBefore(five, hourLater));
        // one more typo an hour later counts as the third, not the sixth: still free
        assertEquals(Duration.ZERO, PER_NAME.waitBefore(PER_NAME.afterFailure(five, hourLater), hourLater));
    }

    @Test
    void anAttackerWhoRetriesAsSoonAsAllowedGetsAboutFourGuessesAnHourOnceAtTheCap() {
        // 5 free, then waits of 1+2+…+512 s (17 min) for 10 more, then one per 15 min: 15 in the first
        // 17 min, 17 in the first hour, 15 + 94 = 109 in a day (unlimited before X-3)
        assertEquals(17, guessesWithin(PER_NAME, Duration.ofHours(1)));
        assertEquals(109, guessesWithin(PER_NAME, Duration.ofDays(1)));
        // over many names from one address: 10 free, then the same doubling
        assertEquals(22, guessesWithin(PER_ADDRESS, Duration.ofHours(1)));
    }

    @Test
    void pausingForTheCountToHalveGainsAnAttackerLittle() {
        // at the cap, then an hour's pause: the count halves but stays above the free allowance
        Failures atCap = new Failures(20, T0);
        Instant back = T0.plus(Duration.ofHours(1));
        Failures next = PER_NAME.afterFailure(atCap, back); // counts as 11
        assertEquals(Duration.ofSeconds(64), PER_NAME.waitBefore(next, back));
    }

    @Test
    void retryAfterRoundsUpToWholeSecondsAndIsNeverZero() {
        assertEquals(1, FailureDelays.retryAfterSeconds(Duration.ofMillis(1)));
        assertEquals(1, FailureDelays.retryAfterSeconds(Duration.ofSeconds(1)));
        assertEquals(2, FailureDelays.retryAfterSeconds(Duration.ofMillis(1001)));
        assertEquals(900, FailureDelays.retryAfterSeconds(Duration.ofMinutes(15)));
    }

    @Test
    void aCapAtLeastAsLongAsTheHalvingPeriodIsRefused() {
        // waiting out such a cap would also halve the count: the attacker would slide back to free guesses
        assertThrows(IllegalArgumentException.class,
                () -> new FailureDelays(5, Duration.ofSeconds(1), Duration.ofHours(1), Duration.ofHours(1)));
        assertThrows(IllegalArgumentException.class,
                () -> new FailureDelays(0, Duration.ofSeconds(1), Duration.ofMinutes(1), Duration.ofHours(1)));
        assertTrue(PER_NAME.halvingAfter().compareTo(PER_NAME.cap()) > 0);
        assertFalse(PER_ADDRESS.delayFrom() <= PER_NAME.delayFrom(), "the per-address allowance covers many names");
    }

    /** How many tries an attacker who always retries the moment it is allowed gets within {@code span}. */
    private static int guessesWithin(FailureDelays rule, Duration span) {
        Instant now = T0;
        Instant end = T0.plus(span);
        Failures failures = null;
        int guesses = 0;
        while (true) {
            now = now.plus(rule.waitBefore(failures, now));
            if (!now.isBefore(end)) {
                return guesses;
            }
            failures = rule.afterFailure(failures, now);
            guesses++;
        }
    }
}
