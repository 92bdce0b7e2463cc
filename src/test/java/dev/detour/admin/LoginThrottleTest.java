package dev.detour.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.testkit.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {
    private final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    private final LoginThrottle throttle = new LoginThrottle(clock, 3, 5, Duration.ofMinutes(15));

    @Test
    void failuresBelowTheUsernameLimitDoNotBlock() {
        throttle.recordFailure("10.0.0.1", "admin");
        throttle.recordFailure("10.0.0.1", "admin");
        assertEquals(Duration.ZERO, throttle.blockedFor("10.0.0.1", "admin"));
    }

    @Test
    void reachingTheUsernameLimitBlocksThatNameFromAnyAddressUntilTheWindowEnds() {
        for (int i = 0; i < 3; i++) {
            throttle.recordFailure("10.0.0." + i, "admin");
        }
        assertEquals(Duration.ofMinutes(15), throttle.blockedFor("10.0.0.9", "Admin"));
        clock.advance(Duration.ofMinutes(10));
        assertEquals(Duration.ofMinutes(5), throttle.blockedFor("10.0.0.9", "admin"));
        assertEquals(Duration.ZERO, throttle.blockedFor("10.0.0.9", "someone-else"));
        clock.advance(Duration.ofMinutes(5));
        assertEquals(Duration.ZERO, throttle.blockedFor("10.0.0.9", "admin"));
    }

    @Test
    void reachingTheAddressLimitBlocksEveryNameFromThatAddress() {
        for (int i = 0; i < 5; i++) {
            throttle.recordFailure("10.0.0.1", "user" + i);
        }
        assertEquals(Duration.ofMinutes(15), throttle.blockedFor("10.0.0.1", "fresh-name"));
        assertEquals(Duration.ZERO, throttle.blockedFor("10.0.0.2", "fresh-name"));
    }

    @Test
    void successClearsTheUsernameCount() {
        throttle.recordFailure("10.0.0.1", "admin");
        throttle.recordFailure("10.0.0.1", "admin");
        throttle.recordSuccess("admin");
        throttle.recordFailure("10.0.0.1", "admin");
        throttle.recordFailure("10.0.0.1", "admin");
        assertEquals(Duration.ZERO, throttle.blockedFor("10.0.0.1", "admin"));
    }

    @Test
    void aFailureAfterTheWindowStartsANewCount() {
        throttle.recordFailure("10.0.0.1", "admin");
        throttle.recordFailure("10.0.0.1", "admin");
        clock.advance(Duration.ofMinutes(16));
        throttle.recordFailure("10.0.0.1", "admin");
        assertEquals(Duration.ZERO, throttle.blockedFor("10.0.0.1", "admin"));
    }
}
