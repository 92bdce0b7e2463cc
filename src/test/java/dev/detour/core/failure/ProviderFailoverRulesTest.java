package dev.detour.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** F-7: rate limits are not billing, broad words are never quota, reset is not unreachable. */
class ProviderFailoverRulesTest {
    static final Instant NOW = Instant.parse("2026-09-02T10:00:00Z");

    static Failure classify(int status, String body) {
        return FailureClassifier.classify(AttemptFacts.response(status, Map.of(), body).forModel("m"), NOW).failure();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Rate limit reached for requests", "You have hit your usage limit", "quota",
            "billing", "limit exceeded", "Too many requests, quota window"})
    void a429SayingRateOrUsageLimitIsARateLimitNotQuota(String message) {
        Failure f = classify(429, "{\"error\":{\"message\":\"" + message + "\"}}");
        assertFalse(f.quota(), message);
        assertFalse(f.billing());
        assertTrue(f.rateLimited());
        assertEquals(FailureKind.UPSTREAM_STATUS, f.kind());
        assertEquals(Scope.MODEL, f.scope());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"billing issue", "check your quota", "limit"})
    void broadWordsOnASuccessEnvelopeAreNotQuota(String message) {
        Failure f = classify(200, "{\"error\":{\"message\":\"" + message + "\"}}");
        assertFalse(f.quota());
        assertEquals(FailureKind.SEMANTIC_RESPONSE_TRANSIENT, f.kind());
    }

    @Test
    void http402IsBillingAndNotARateLimit() {
        Failure f = classify(402, "");
        assertTrue(f.billing());
        assertFalse(f.rateLimited());
    }

    @Test
    void connectionResetIsAnOrdinaryTransientSwitchNotUnreachable() {
        Failure reset = FailureClassifier.classify(AttemptFacts.transport(
                new TransportError(TransportErrorType.CONNECTION_RESET, "connection reset")), NOW).failure();
        assertEquals(FailureClass.TRANSIENT, reset.failureClass());
        assertFalse(reset.unreachable());
        for (TransportErrorType t : new TransportErrorType[] {TransportErrorType.CONNECT_REFUSED,
                TransportErrorType.UNKNOWN_HOST}) {
            Failure f = FailureClassifier.classify(AttemptFacts.transport(new TransportError(t, "x")).forModel("m"),
                    NOW).failure();
            assertTrue(f.unreachable());
            assertEquals(Scope.ACCOUNT, f.scope());
        }
    }
}
