package dev.detour.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC §12 C-4': the same account is retried only when the upstream named no wait longer than the retry interval. */
class SameAccountRetryTest {
    static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    static Failure failure(int status, String header, String value) {
        Map<String, String> headers = new HashMap<>();
        if (header != null) {
            headers.put(header, value);
        }
        return FailureClassifier.classify(AttemptFacts.response(status, headers, "").forModel("m"), NOW).failure();
    }

    @ParameterizedTest(name = "{0} {1}: {2} with retry interval {3} ms → retry same account: {4}")
    @CsvSource(nullValues = "null", value = {
            "429, null,                       null, 200,   false", // a rate limit: never at once again
            "429, retry-after,                0.1,  200,   false",
            "503, null,                       null, 200,   true",
            "503, retry-after,                0.1,  200,   true",  // the wait fits in the interval
            "503, retry-after,                0.2,  200,   true",
            "503, retry-after,                1,    200,   false",
            "503, retry-after,                20,   200,   false",
            "500, retry-after,                1,    5000,  true",
            "529, retry-after,                20,   60000, true",
            "503, x-ratelimit-reset-requests, 25m,  200,   true",  // a reset hint is no wait on a 503 (C-4')
            "500, anthropic-ratelimit-unified-reset, 4102444800, 200, true",
            "401, null,                       null, 200,   false",
            "403, retry-after,                0.1,  200,   false"})
    void aNamedWaitLongerThanTheRetryIntervalMovesToTheNextAccount(int status, String header, String value,
            long intervalMs, boolean retry) {
        assertEquals(retry, failure(status, header, value).retrySameAccount(Duration.ofMillis(intervalMs)));
    }
}
