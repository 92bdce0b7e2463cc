package dev.detour.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** F-1: three classes by status, by permanent text, and for answers without a status. */
class StatusClassificationTest {
    static final Instant NOW = Instant.parse("2026-09-02T10:00:00Z");

    static Verdict classify(int status, String body) {
        return FailureClassifier.classify(AttemptFacts.response(status, Map.of(), body).forModel("upstream-sol"), NOW);
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
            "408, FAILURE", "401, FAILURE", "403, FAILURE", "429, FAILURE",
            "500, FAILURE", "502, FAILURE", "503, FAILURE", "504, FAILURE", "529, FAILURE", "599, FAILURE",
            "400, CLIENT_ERROR", "404, CLIENT_ERROR", "405, CLIENT_ERROR", "409, CLIENT_ERROR",
            "413, CLIENT_ERROR", "422, CLIENT_ERROR", "301, CLIENT_ERROR",
            "200, SUCCESS", "201, SUCCESS"})
    void statusDecidesTheClassWhenTheBodySaysNothingSpecial(int status, Verdict.Outcome expected) {
        Verdict verdict = classify(status, status >= 300 ? "{\"error\":{\"message\":\"nope\"}}" : "{\"id\":\"x\"}");
        assertEquals(expected, verdict.outcome());
        if (expected == Verdict.Outcome.FAILURE) {
            assertEquals(FailureClass.TRANSIENT, verdict.failure().failureClass());
            assertEquals(FailureKind.UPSTREAM_STATUS, verdict.failure().kind());
            assertEquals("upstream returned " + status, verdict.failure().message());
        }
        if (expected == Verdict.Outcome.CLIENT_ERROR) {
            assertEquals(FailureClass.NONE, verdict.failure().failureClass());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"error\":\"invalid_grant\",\"error_description\":\"bad\"}",
            "{\"error\":{\"message\":\"Refresh token has been revoked\"}}",
            "{\"error\":{\"message\":\"The token has been revoked by the user\"}}",
            "官方 OAuth 凭证已失效，请重新登录"})
    void permanentTextRevokesWhateverTheStatus(String body) {
        for (int status : new int[] {400, 401, 403, 500}) {
            Verdict verdict = classify(status, body);
            assertTrue(verdict.isFailure(), "status " + status);
            assertEquals(FailureClass.PERMANENT, verdict.failure().failureClass());
            assertEquals(Scope.ACCOUNT, verdict.failure().scope());
            assertFalse(verdict.failure().retrySameAccount());
        }
    }

    @Test
    void permanentTextInsideAFailingSuccessEnvelopeRevokes() {
        Verdict verdict = classify(200, "{\"error\":{\"code\":\"invalid_grant\",\"message\":\"refresh failed\"}}");
        assertEquals(FailureClass.PERMANENT, verdict.failure().failureClass());
    }

    @Test
    void legitimateContentMentioningInvalidGrantIsASuccess() {
        String body = "{\"choices\":[{\"message\":{\"content\":\"OAuth returns invalid_grant when the token "
                + "has been revoked\"},\"finish_reason\":\"stop\"}]}";
        assertTrue(classify(200, body).isSuccess());
    }

    @ParameterizedTest
    @EnumSource(TransportErrorType.class)
    void noStatusAtAllIsATransientAccountScopedTransportFailure(TransportErrorType type) {
        TransportError error = new TransportError(type, "connect failed: " + type);
        Verdict verdict = FailureClassifier.classify(AttemptFacts.transport(error).forModel("m"), NOW);
        Failure f = verdict.failure();
        assertEquals(FailureClass.TRANSIENT, f.failureClass());
        assertEquals(FailureKind.TRANSPORT, f.kind());
        assertEquals(Scope.ACCOUNT, f.scope());
        assertNull(f.status());
        assertEquals("connect failed: " + type, f.message());
        assertEquals(type.unreachable(), f.unreachable());
    }

    @Test
    void aModelTestUsesTheModelTestKinds() {
        Failure status = FailureClassifier.classify(
                AttemptFacts.response(503, Map.of(), "").forModel("m").asModelTest(), NOW).failure();
        Failure transport = FailureClassifier.classify(AttemptFacts.transport(
                new TransportError(TransportErrorType.READ_TIMEOUT, "read timeout 180s")).asModelTest(), NOW).failure();
        assertEquals(FailureKind.MODEL_TEST_STATUS, status.kind());
        assertEquals(Scope.MODEL, status.scope());
        assertEquals(FailureKind.MODEL_TEST, transport.kind());
        assertEquals(Scope.ACCOUNT, transport.scope());
    }

    @ParameterizedTest(name = "{0} retry same account: {1}")
    @CsvSource({"401, false", "403, false", "429, false", "500, true", "408, true"})
    void authFailuresAndRateLimitsAreNeverRetriedOnTheSameAccount(int status, boolean retry) {
        assertEquals(retry, classify(status, "").failure().retrySameAccount());
    }

    @Test
    void responseBodyIsKeptUpTo8192CharactersWithAnEllipsisWhenCut() {
        String huge = "x".repeat(9000);
        Failure f = classify(500, huge).failure();
        assertEquals(8193, f.responseBody().length());
        assertTrue(f.responseBody().endsWith("x…"));
        Failure small = classify(500, "tiny").failure();
        assertEquals("tiny", small.responseBody());
    }

    @Test
    void messageIsTruncatedTo512Characters() {
        String body = "{\"error\":{\"message\":\"" + "m".repeat(2000) + "\"}}";
        Failure f = classify(200, body).failure();
        assertEquals(512, f.message().length());
    }
}
