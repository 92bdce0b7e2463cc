package dev.detour.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** F-4: a 2xx answer whose body is a failure, and legitimate content that is not. */
class SemanticBodyTest {
    static final Instant NOW = Instant.parse("2026-09-02T10:00:00Z");

    static Verdict ok(String body) {
        return FailureClassifier.classify(AttemptFacts.response(200, Map.of(), body).forModel("upstream-sol"), NOW);
    }

    static Verdict sse(String body) {
        return FailureClassifier.classify(AttemptFacts.streamed(200, Map.of(), body).forModel("upstream-sol"), NOW);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "{\"type\":\"response.failed\",\"response\":{\"id\":\"r1\"}}",
            "{\"response\":{\"status\":\"failed\"}}",
            "{\"error\":{\"message\":\"upstream error\"}}",
            "{\"error\":{\"code\":\"server_busy\"}}",
            "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"Internal\"}}",
            "{\"status\":\"failed\"}",
            "{\"code\":\"E1001\",\"message\":\"channel broken\"}",
            "  {\"error\":{\"message\":\"padded\"}}  "})
    void structurallyFailingBodiesAreSemanticTransientModelScoped(String body) {
        Verdict verdict = ok(body);
        assertTrue(verdict.isFailure(), body);
        assertEquals(FailureKind.SEMANTIC_RESPONSE_TRANSIENT, verdict.failure().kind());
        assertEquals(Scope.MODEL, verdict.failure().scope());
        assertEquals(FailureClass.TRANSIENT, verdict.failure().failureClass());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "{\"error\":\"just a string\"}",
            "{\"error\":null,\"choices\":[]}",
            "{\"error\":{\"message\":42}}",
            "{\"code\":\"E1\"}",
            "{\"message\":\"hello\"}",
            "{\"status\":\"completed\",\"output\":[]}",
            "{\"type\":\"response.completed\"}",
            "[{\"error\":{\"message\":\"inside an array\"}}]",
            "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"An error occurred in the other "
                    + "module: bad gateway, service unavailable, quota\"},\"finish_reason\":\"stop\"}]}",
            "{\"content\":[{\"type\":\"text\",\"text\":\"error: other\"}],\"type\":\"message\"}",
            "{\"choices\":[{\"message\":{\"content\":\"{\\\"error\\\":{\\\"message\\\":\\\"x\\\"}}\"}}]}",
            "{\"data\":[{\"embedding\":[0.1,-2.5e-3]}]}",
            "{\"unterminated\": \"bad gateway",
            "an answer about errors and other things"})
    void legitimateOrUndecidableBodiesAreSuccess(String body) {
        assertTrue(ok(body).isSuccess(), body);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "stream disconnected before completion", "Gateway Timeout", "502 Bad Gateway",
            "Service Unavailable", "connection reset by peer", "Temporarily Unavailable",
            "Our servers are currently overloaded. Please try again later.", "insufficient_quota",
            "<html><body>Bad Gateway</body></html>"})
    void plainTextBodiesWithAFailurePhraseAreFailures(String body) {
        Verdict verdict = ok(body);
        assertTrue(verdict.isFailure(), body);
        assertEquals(FailureKind.SEMANTIC_RESPONSE_TRANSIENT, verdict.failure().kind());
        assertEquals(body.strip(), verdict.failure().message());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"quota exhausted", "您的额度已耗尽", "额度耗尽", "配额已耗尽"})
    void plainTextQuotaPhrasesTakeTheQuotaChannel(String body) {
        assertEquals(FailureKind.SEMANTIC_RESPONSE_FAILED, ok(body).failure().kind());
    }

    @Test
    void anOverloadedAnswerIsMarkedSoItNeverFlipsAStatus() {
        Failure f = ok("Our servers are currently overloaded").failure();
        assertTrue(f.overloaded());
        assertTrue(!f.countsTowardStreak());
        Failure anthropic = ok("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}")
                .failure();
        assertTrue(anthropic.overloaded());
    }

    @Test
    void theFirstSseDataFrameDecidesSkippingCommentsEmptyFramesAndDone() {
        String body = ": keep-alive\n\ndata:\n\ndata: [DONE]\n\nevent: error\n"
                + "data: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"upstream broke\"}}\n\n";
        Verdict verdict = sse(body);
        assertTrue(verdict.isFailure());
        assertEquals("upstream broke", verdict.failure().message());
    }

    @Test
    void aFailureAfterTheFirstSseDataFrameIsNotAFirstFrameFailure() {
        String body = "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n"
                + "data: {\"error\":{\"message\":\"late\"}}\n\n"
                + "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
        assertTrue(sse(body).isSuccess());
    }

    @Test
    void aResponsesStreamOpeningWithResponseFailedIsAFailure() {
        String body = "event: response.failed\ndata: {\"type\":\"response.failed\",\"response\":{\"status\":\"failed\","
                + "\"error\":{\"code\":\"server_error\",\"message\":\"boom\"}}}\n\n";
        Failure f = sse(body).failure();
        assertEquals("server_error", f.errorCode());
        assertEquals("boom", f.message());
    }

    @Test
    void aTruncatedStreamIsSemanticTransientWithTheFixedMessage() {
        String body = "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n";
        Failure f = sse(body).failure();
        assertEquals(FailureKind.SEMANTIC_RESPONSE_TRANSIENT, f.kind());
        assertEquals(Scope.MODEL, f.scope());
        assertEquals("stream disconnected before completion: stream closed before response.completed", f.message());
        Failure streamed = FailureClassifier.truncatedStream(200, "upstream-sol");
        assertEquals(f.fingerprint(), streamed.fingerprint()); // both paths reach the same verdict
        assertEquals(f.kind(), streamed.kind());
        assertEquals(f.scope(), streamed.scope());
    }

    @Test
    void aStreamRequestAnsweredWithAJsonEnvelopeOrAnErrorPageIsStillJudged() {
        Failure json = sse("{\"error\":{\"code\":\"upstream_error\",\"message\":\"no channel\"}}").failure();
        assertEquals("no channel", json.message());
        assertEquals(FailureKind.SEMANTIC_RESPONSE_TRANSIENT, json.kind());
        assertEquals("502 Bad Gateway", sse("502 Bad Gateway").failure().message());
    }

    @Test
    void aPlainTextSuccessBodyNamingARevokedTokenRevokes() {
        Failure f = ok("Your refresh token has been revoked").failure();
        assertEquals(FailureClass.PERMANENT, f.failureClass());
        assertEquals("Your refresh token has been revoked", f.message());
    }

    @Test
    void theStreamingPathJudgesTheFirstFrameOnceItIsWhole() {
        String chunk1 = ": ping\n\nevent: error\ndata: {\"error\":{\"message\":";
        String chunk2 = "\"first frame failed\"}}\n\n";
        assertTrue(!SseFrames.firstDataFrameComplete(chunk1));
        String soFar = chunk1 + chunk2;
        assertTrue(SseFrames.firstDataFrameComplete(soFar));
        Verdict verdict = FailureClassifier.classify(AttemptFacts.streamStart(200, Map.of(), soFar).forModel("m"), NOW);
        assertEquals("first frame failed", verdict.failure().message());
        String healthy = "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n";
        assertTrue(FailureClassifier.classify(AttemptFacts.streamStart(200, Map.of(), healthy), NOW).isSuccess());
    }

    @Test
    void aCompleteStreamIsASuccess() {
        assertTrue(sse("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\ndata: [DONE]\n\n").isSuccess());
    }

    @Test
    void anEmptySuccessBodyIsAFailureSoTheRequestCanSwitch() {
        Failure f = ok("").failure();
        assertEquals(FailureKind.SEMANTIC_RESPONSE_TRANSIENT, f.kind());
        assertTrue(FailureClassifier.classify(AttemptFacts.response(204, Map.of(), ""), NOW).isSuccess());
    }

    @Test
    void fieldsComeFromResponseErrorThenErrorThenTopLevelAndTypeNeverFromTheEnvelope() {
        UpstreamErrorFields nested = UpstreamErrorFields.parse("{\"type\":\"error\",\"code\":\"top\",\"message\":\"topm\","
                + "\"error\":{\"code\":\"mid\",\"message\":\"midm\"},"
                + "\"response\":{\"error\":{\"code\":\"deep\",\"type\":\"deept\",\"message\":\"deepm\"}}}");
        assertEquals(new UpstreamErrorFields("deep", "deept", "deepm", true), nested);
        UpstreamErrorFields envelopeTypeOnly = UpstreamErrorFields.parse("{\"type\":\"error\",\"code\":\"c\",\"message\":\"m\"}");
        assertEquals(new UpstreamErrorFields("c", null, "m", true), envelopeTypeOnly);
        assertEquals("429", UpstreamErrorFields.parse("{\"error\":{\"code\":429,\"message\":\"m\"}}").code());
    }
}
