package dev.detour.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** F-3: is_account_scoped_failure, row by row of the seed's table. */
class ScopeRulesTest {

    @ParameterizedTest(name = "{0} status {1} → account {2}")
    @CsvSource(nullValues = "none", value = {
            "refresh, none, true", "request_build, none, true", "transport, none, true", "model_test, none, true",
            "refresh, 429, true", "transport, 500, true",
            "upstream_status, 401, true", "upstream_status, 403, true",
            "upstream_status, 400, false", "upstream_status, 404, false", "upstream_status, 408, false",
            "upstream_status, 429, false", "upstream_status, 500, false", "upstream_status, 503, false",
            "upstream_status, none, false",
            "model_test_status, 401, true", "model_test_status, 403, true",
            "model_test_status, 429, false", "model_test_status, 502, false",
            "semantic_response_transient, 200, false", "semantic_response_transient, 401, false",
            "response_transform, 200, false",
            "semantic_response_failed, 200, true",
            "something_new, 429, true", "'', none, true"})
    void theSeedsScopeTable(String kind, Integer status, boolean accountScoped) {
        assertEquals(accountScoped, ScopeRules.isAccountScopedFailure(kind, status));
    }

    @Test
    void withoutAModelNameEveryFailureDegradesToAccountScope() {
        assertEquals(Scope.ACCOUNT, ScopeRules.scopeOf(FailureKind.UPSTREAM_STATUS, 429, null));
        assertEquals(Scope.ACCOUNT, ScopeRules.scopeOf(FailureKind.SEMANTIC_RESPONSE_TRANSIENT, 200, " "));
        assertEquals(Scope.MODEL, ScopeRules.scopeOf(FailureKind.UPSTREAM_STATUS, 429, "upstream-sol"));
        Failure noModel = FailureClassifier.classify(AttemptFacts.response(429, Map.of(), ""),
                Instant.EPOCH).failure();
        assertEquals(Scope.ACCOUNT, noModel.scope());
    }

    @Test
    void quotaIsAccountScopedEvenWithAModel() {
        Failure f = FailureClassifier.classify(AttemptFacts.response(200, Map.of(),
                "{\"error\":{\"code\":\"insufficient_quota\",\"message\":\"x\"}}").forModel("m"), Instant.EPOCH)
                .failure();
        assertEquals(FailureKind.SEMANTIC_RESPONSE_FAILED, f.kind());
        assertEquals(Scope.ACCOUNT, f.scope());
    }

    @Test
    void wireLabelsRoundTrip() {
        for (FailureKind kind : FailureKind.values()) {
            assertEquals(kind, FailureKind.fromWire(kind.wire()));
        }
        assertEquals(null, FailureKind.fromWire("nope"));
    }
}
