package dev.detour.core.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** W-1: suppression windows and the retry schedule. */
class AlertRulesTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void anAlertWithinTheWindowOfTheLastOneIsSuppressedAndAfterItIsNot() {
        Duration window = Duration.ofMinutes(10);
        assertFalse(AlertRules.suppressed(null, window, T0), "never sent");
        assertTrue(AlertRules.suppressed(T0, window, T0.plusSeconds(599)));
        assertFalse(AlertRules.suppressed(T0, window, T0.plusSeconds(600)));
        assertFalse(AlertRules.suppressed(T0, Duration.ZERO, T0), "a zero window suppresses nothing");
    }

    @ParameterizedTest(name = "after {0} failed attempt(s): wait {1} s")
    @CsvSource({"1, 30", "2, 60", "3, 120", "4, 240", "5, 480"})
    void retriesBackOffExponentially(int attempts, long seconds) {
        assertEquals(T0.plusSeconds(seconds), AlertRules.nextRetry(attempts, T0));
    }

    @Test
    void afterTheLastAttemptThereIsNoRetry() {
        assertNull(AlertRules.nextRetry(AlertRules.MAX_ATTEMPTS, T0));
    }
}
