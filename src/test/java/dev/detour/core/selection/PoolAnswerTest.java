package dev.detour.core.selection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.detour.core.failure.AttemptFacts;
import dev.detour.core.failure.Failure;
import dev.detour.core.failure.FailureClassifier;
import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC §12 P-8': the client-facing status, envelope type and Retry-After by cause and protocol. */
class PoolAnswerTest {
    static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    /** A classified failure: a status, "transport" (connection reset) or "quota" (a 200 quota body). */
    static Failure failure(String what) {
        if (what.equals("transport")) {
            return FailureClassifier.classify(AttemptFacts.transport(new TransportError(
                    TransportErrorType.CONNECTION_RESET, "connection reset")).forModel("m"), NOW).failure();
        }
        if (what.equals("quota")) {
            return FailureClassifier.classify(AttemptFacts.response(200, Map.of(),
                    "{\"error\":{\"code\":\"insufficient_quota\",\"message\":\"quota exhausted\"}}").forModel("m"),
                    NOW).failure();
        }
        if (what.equals("overloaded-200")) {
            return FailureClassifier.classify(AttemptFacts.response(200, Map.of(),
                    "{\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}").forModel("m"), NOW)
                    .failure();
        }
        return FailureClassifier.classify(AttemptFacts.response(Integer.parseInt(what), Map.of(), "")
                .forModel("m"), NOW).failure();
    }

    /** Attempts as "429+20|503" = a 429 whose route is usable in 20 s, then a 503 usable at once. */
    static List<PoolAnswer.FailedAttempt> attempts(String spec) {
        List<PoolAnswer.FailedAttempt> list = new ArrayList<>();
        for (String one : spec.split("\\|")) {
            String[] parts = one.split("\\+");
            Instant usable = parts.length > 1 ? NOW.plusMillis((long) (Double.parseDouble(parts[1]) * 1000)) : null;
            list.add(new PoolAnswer.FailedAttempt(failure(parts[0]), usable));
        }
        return list;
    }

    @ParameterizedTest(name = "{0} (anthropic={1}) → {2} {3}, Retry-After {4}")
    @CsvSource(nullValues = "null", value = {
            // every attempt rate-limited → 429 + seconds to the soonest usable route (≥ 1)
            "429+20,                  false, 429, rate_limit_error, 20",
            "429+20,                  true,  429, rate_limit_error, 20",
            "429+30|429+12.2,         false, 429, rate_limit_error, 13",
            "429,                     true,  429, rate_limit_error, 1",
            // every attempt overload / 5xx / transport → 503, Anthropic 529 overloaded_error
            "529+10|503+10,           false, 503, null,             10",
            "529+10|503+10,           true,  529, overloaded_error, 10",
            "500|transport,           false, 503, null,             0",
            "502|transport,           true,  529, overloaded_error, 0",
            "overloaded-200+4,        true,  529, overloaded_error, 4",
            // a mix of causes, or any other cause → 502 route_pool.all_failed
            "429+20|503+10,           false, 502, null,             0",
            "429+20|503+10,           true,  502, null,             0",
            "401,                     true,  502, null,             0",
            "quota|503,               false, 502, null,             0",
            "408,                     false, 502, null,             0"})
    void afterEveryAttemptFailedTheStatusFollowsTheCommonCause(String spec, boolean anthropic, int status,
            String type, long retryAfter) {
        PoolAnswer answer = PoolAnswer.afterAttempts(attempts(spec), anthropic, NOW);

        assertEquals(status, answer.status());
        assertEquals(type, answer.type());
        assertEquals(retryAfter, answer.retryAfterSeconds());
        assertEquals("route_pool.all_failed", answer.code()); // the stable Detour code in every case
    }

    @ParameterizedTest(name = "{0} (anthropic={1}) → {2} {3}")
    @CsvSource(nullValues = "null", value = {
            "MODEL_UNMATCHED,      true,  404, not_found_error",
            "MODEL_UNMATCHED,      false, 404, invalid_request_error",
            "MODEL_UNAVAILABLE,    true,  503, null",
            "MODEL_UNAVAILABLE,    false, 503, null",
            "NO_ACCOUNTS,          true,  503, null",
            "NO_ACCOUNTS,          false, 503, null",
            "AT_CAPACITY,          false, 503, null",
            "HALTED,               false, 503, null",
            "RATE_LIMITED,         true,  429, rate_limit_error",
            "RATE_LIMITED,         false, 429, rate_limit_error",
            "NO_ELIGIBLE_ROUTE,    false, 502, null",
            "KEY_MODEL_NOT_ALLOWED, true, 403, null"})
    void aRefusalBeforeAnyAttemptAnswersTheStatusOfItsCause(PoolErrorCode error, boolean anthropic, int status,
            String type) {
        PoolAnswer answer = PoolAnswer.refusal(error, anthropic, 0);

        assertEquals(status, answer.status());
        assertEquals(type, answer.type());
        assertEquals(error.code(), answer.code());
    }

    @Test
    void aRateLimitRefusalAlwaysCarriesARetryAfterOfAtLeastOneSecond() {
        assertEquals(1, PoolAnswer.refusal(PoolErrorCode.RATE_LIMITED, true, 0).retryAfterSeconds());
        assertEquals(17, PoolAnswer.refusal(PoolErrorCode.RATE_LIMITED, false, 17).retryAfterSeconds());
        assertEquals(0, PoolAnswer.refusal(PoolErrorCode.MODEL_UNMATCHED, false, 0).retryAfterSeconds());
    }

    @Test
    void aCoolingRouteThatWasNotTriedCountsWhenItComesBackSooner() {
        assertEquals(3, PoolAnswer.afterAttempts(attempts("429+20"), false, NOW, NOW.plusSeconds(3))
                .retryAfterSeconds());
        assertEquals(20, PoolAnswer.afterAttempts(attempts("429+20"), false, NOW, NOW.plusSeconds(60))
                .retryAfterSeconds());
        assertEquals(5, PoolAnswer.afterAttempts(attempts("503+8"), true, NOW, NOW.plusSeconds(5))
                .retryAfterSeconds());
        assertEquals(1, PoolAnswer.afterAttempts(attempts("429+20"), false, NOW, NOW.minusSeconds(1))
                .retryAfterSeconds(), "a left-out route whose window ended during the request is usable now");
    }

    @Test
    void noAttemptAtAllIsNotARateLimitNorAnOverload() {
        PoolAnswer answer = PoolAnswer.afterAttempts(List.of(), true, NOW);

        assertEquals(502, answer.status());
        assertNull(answer.type());
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({"429, RATE_LIMIT", "529, OVERLOAD", "503, OVERLOAD", "500, OVERLOAD", "transport, OVERLOAD",
            "overloaded-200, OVERLOAD", "401, OTHER", "403, OTHER", "quota, OTHER", "402, OTHER", "408, OTHER"})
    void eachFailureHasOneCause(String what, PoolAnswer.Cause cause) {
        assertEquals(cause, PoolAnswer.causeOf(failure(what)));
    }
}
