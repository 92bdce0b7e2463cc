package dev.detour.core.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** G-3 / R-5: the scheduler lease's term, who may hold it, and where a new leader's first window starts. */
class LeaderTermTest {
    private static final Duration TICK = Duration.ofSeconds(30);
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void aRenewalHoldsTheLeaseForTwoTicksAndATakeoverComesWithinThree() {
        assertEquals(Duration.ofSeconds(60), LeaderTerm.term(TICK));
        assertEquals(Duration.ofSeconds(90), LeaderTerm.takeoverWithin(TICK));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            its own unexpired lease is kept        | me    | 30  | true
            its own expired lease is taken again   | me    | -30 | true
            another's unexpired lease is refused   | other | 1   | false
            another's lease at its expiry is free  | other | 0   | true
            another's expired lease is taken over  | other | -1  | true
            """)
    void aHolderKeepsItsOwnLeaseAndTakesAnothersOnlyAtOrAfterItsExpiry(String what, String current,
            long expiresInSeconds, boolean may) {
        assertEquals(may, LeaderTerm.mayHold(current, NOW.plusSeconds(expiresInSeconds), "me", NOW), what);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            taken over 2 ticks after the last renewal  | 0   | -60
            taken over 3 ticks after the last renewal  | -30 | -90
            no earlier holder starts one tick back     |     | -30
            a lease just inserted starts one tick back | 60  | -30
            a renewal older than the bound is ignored  | -31 | -30
            a renewal under a tick ago starts one back | 45  | -30
            """)
    void aNewLeaderContinuesFromTheDeadHoldersLastRenewalWithinTheBound(String what, Long priorExpiryInSeconds,
            long windowStartInSeconds) {
        Instant prior = priorExpiryInSeconds == null ? null : NOW.plusSeconds(priorExpiryInSeconds);
        assertEquals(NOW.plusSeconds(windowStartInSeconds), LeaderTerm.firstWindowFrom(prior, NOW, TICK), what);
    }

    @Test
    void whateverThePhasesADeadHoldersLeaseIsTakenWithinThreeTicksAndNeverWhileItRenews() {
        long tick = TICK.toSeconds();
        for (long phase = 0; phase < tick; phase++) { // the follower ticks this long after the holder
            for (long diesAfter = 0; diesAfter < tick; diesAfter++) { // the holder dies this long after a renewal
                Instant renewed = NOW;
                Instant expiry = renewed.plus(LeaderTerm.term(TICK));
                Instant died = renewed.plusSeconds(diesAfter);
                Instant follower = NOW.minusSeconds(tick - phase);
                while (!LeaderTerm.mayHold("holder", expiry, "follower", follower)) {
                    follower = follower.plus(TICK);
                }
                Duration takeover = Duration.between(died, follower);
                assertTrue(takeover.compareTo(LeaderTerm.takeoverWithin(TICK)) <= 0,
                        "phase " + phase + " s, died " + diesAfter + " s after renewing: taken after " + takeover);
                assertFalse(follower.isBefore(expiry), "never before the expiry");
                assertTrue(renewed.plus(TICK).isBefore(expiry), "so a holder that renews every tick keeps it");
            }
        }
    }
}
