package dev.detour.core.cooldown;

import static dev.detour.core.cooldown.FailureMother.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.detour.core.failure.Failure;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** S-9: which failed requests halt a group, for how long, and the doubling streak. */
class GroupHaltRulesTest {
    private static Failure rateLimit() {
        return FailureMother.status(429, "upstream-sol", T0);
    }

    private static Failure billing() {
        return FailureMother.status(402, "upstream-sol", T0);
    }

    @Test
    void everyAttemptRateLimitedHaltsThirtySecondsWithoutTouchingTheStreak() {
        GroupHaltRules.Halt halt = GroupHaltRules.afterFailedRequest(List.of(rateLimit(), rateLimit()), 2, T0);
        assertEquals(T0.plusSeconds(30), halt.until());
        assertEquals(2, halt.streak());
        assertEquals("rate_limit", halt.reason());
    }

    @Test
    void aMixOfRateLimitAndServerErrorDoesNotHalt() {
        assertNull(GroupHaltRules.afterFailedRequest(List.of(rateLimit(), FailureMother.status(500, null, T0)), 0,
                T0));
    }

    @Test
    void billingAndUnreachableHaltWithTheirReason() {
        assertEquals("billing", GroupHaltRules.afterFailedRequest(List.of(billing()), 0, T0).reason());
        GroupHaltRules.Halt unreachable = GroupHaltRules.afterFailedRequest(
                List.of(FailureMother.transport(null, T0)), 0, T0);
        assertEquals("unreachable", unreachable.reason());
        assertEquals(T0.plusSeconds(60), unreachable.until());
        assertEquals(1, unreachable.streak());
    }

    @ParameterizedTest(name = "halt number {0} lasts {1}s")
    @CsvSource({"1, 60", "2, 120", "3, 240", "4, 300", "10, 300"})
    void hardHaltsDoubleFromSixtySecondsToFiveMinutes(int streak, long seconds) {
        assertEquals(Duration.ofSeconds(seconds), GroupHaltRules.hardHalt(streak));
    }

    @Test
    void nothingFailedNothingHalts() {
        assertNull(GroupHaltRules.afterFailedRequest(List.of(), 0, T0));
    }
}
