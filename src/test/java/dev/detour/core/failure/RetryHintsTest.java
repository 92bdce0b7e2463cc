package dev.detour.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** C-4: reading when the upstream says to come back. */
class RetryHintsTest {
    static final Instant NOW = Instant.parse("2026-09-02T10:00:00Z");

    static Instant hint(Map<String, String> headers, String message) {
        return RetryHints.resetAt(headers, message, NOW);
    }

    @ParameterizedTest(name = "Retry-After {0}")
    @CsvSource(delimiter = '|', value = {
            "30|PT30S", "0.5|PT0.5S", " 120 |PT2M",
            "Wed, 02 Sep 2026 10:05:00 GMT|PT5M"})
    void retryAfterInSecondsOrAsAnHttpDate(String value, Duration expected) {
        assertEquals(NOW.plus(expected), hint(Map.of("retry-after", value), null));
    }

    @ParameterizedTest(name = "x-ratelimit-reset {0}")
    @CsvSource({"1s, PT1S", "6m0s, PT6M", "20ms, PT0.02S", "1h2m3.5s, PT1H2M3.5S", "2, PT2S", "0.5s, PT0.5S"})
    void openAiResetHeadersInGoDurationFormat(String value, Duration expected) {
        assertEquals(NOW.plus(expected), hint(Map.of("x-ratelimit-reset-requests", value), null));
        assertEquals(NOW.plus(expected), hint(Map.of("x-ratelimit-reset-tokens", value), null));
    }

    @Test
    void theLaterOfTheTwoResetHeadersWins() {
        assertEquals(NOW.plusSeconds(360), hint(Map.of("x-ratelimit-reset-requests", "1s",
                "x-ratelimit-reset-tokens", "6m0s"), null));
    }

    @Test
    void anthropicUnifiedResetAsEpochSecondsOrRfc3339() {
        long epoch = NOW.plusSeconds(600).getEpochSecond();
        assertEquals(NOW.plusSeconds(600), hint(Map.of("anthropic-ratelimit-unified-reset", Long.toString(epoch)), null));
        assertEquals(NOW.plusSeconds(900), hint(Map.of("anthropic-ratelimit-unified-reset", "2026-09-02T10:15:00Z"),
                null));
        assertEquals(NOW.plusSeconds(900), hint(Map.of("anthropic-ratelimit-unified-reset",
                "2026-09-02T18:15:00+08:00"), null));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "Your limit will reset at 2026-09-02T12:00:00Z.|2026-09-02T12:00:00Z",
            "usage will reset at 2026-09-02 12:00:00 UTC|2026-09-02T12:00:00Z",
            "quota will reset at 2026-09-02 20:00:00+08:00 (local)|2026-09-02T12:00:00Z",
            "will reset at 2026-09-02 12:30|2026-09-02T12:30:00Z",
            "It will reset at Wed, 02 Sep 2026 12:00:00 GMT|2026-09-02T12:00:00Z",
            "limit will reset at 1788350400|2026-09-02T12:00:00Z"})
    void willResetAtInTheMessage(String message, Instant expected) {
        assertEquals(expected, hint(Map.of(), message));
    }

    @Test
    void retryAfterWinsOverOtherHints() {
        assertEquals(NOW.plusSeconds(5), hint(Map.of("retry-after", "5", "x-ratelimit-reset-tokens", "6m0s"),
                "will reset at 2026-09-03T00:00:00Z"));
    }

    @Test
    void pastUnreadableOrMissingHintsAreIgnored() {
        assertNull(hint(Map.of("retry-after", "Wed, 02 Sep 2026 09:00:00 GMT"), null));
        assertNull(hint(Map.of("retry-after", "soon"), null));
        assertNull(hint(Map.of("x-ratelimit-reset-requests", "abc"), null));
        assertNull(hint(Map.of("anthropic-ratelimit-unified-reset", "yesterday"), "will reset at someday"));
        assertNull(hint(Map.of(), null));
        assertNull(hint(Map.of("retry-after", "0"), null));
    }

    @Test
    void theClassifierCarriesTheHintOnTheFailure() {
        Failure f = FailureClassifier.classify(AttemptFacts.response(429, Map.of("Retry-After", "30"), "")
                .forModel("m"), NOW).failure();
        assertEquals(NOW.plusSeconds(30), f.retryAt());
        assertEquals(Duration.ofSeconds(30), f.retryAfter());
        Failure inBody = FailureClassifier.classify(AttemptFacts.response(429, Map.of(),
                "{\"error\":{\"message\":\"Rate limited; will reset at 2026-09-02T11:00:00Z\"}}").forModel("m"), NOW)
                .failure();
        assertEquals(Instant.parse("2026-09-02T11:00:00Z"), inBody.retryAt());
    }
}
