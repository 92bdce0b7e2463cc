package dev.detour.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** F-5: quota exhaustion, judged on any status, and what is deliberately not quota. */
class QuotaChannelTest {
    static final Instant NOW = Instant.parse("2026-09-02T10:00:00Z");
    static final String NEW_API_BODY = "{\n  \"error\": {\n    \"type\": \"new_api_error\",\n"
            + "    \"message\": \"用户额度不足, 剩余额度: ＄-0.398052 (request id: 20260902...)\"\n  },\n"
            + "  \"type\": \"error\"\n}";

    static Failure classify(int status, String body) {
        Verdict v = FailureClassifier.classify(AttemptFacts.response(status, Map.of(), body).forModel("m"), NOW);
        return v.failure();
    }

    static boolean isQuota(int status, String body) {
        Failure f = classify(status, body);
        return f != null && f.quota();
    }

    @ParameterizedTest(name = "code {0}")
    @ValueSource(strings = {"insufficient_quota", "INSUFFICIENT-QUOTA", "quota_exhausted", "Quota Exhausted",
            "usage:exhausted", "account.usage_exhausted", "ERR_INSUFFICIENT_QUOTA_42"})
    void normalizedErrorCodesAreQuota(String code) {
        assertTrue(isQuota(429, "{\"error\":{\"code\":\"" + code + "\",\"message\":\"x\"}}"), code);
        assertTrue(isQuota(200, "{\"error\":{\"code\":\"" + code + "\",\"message\":\"x\"}}"), code);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"您的额度已耗尽", "额度 耗 尽", "本月额度已用完", "配额已耗尽", "配额耗尽", "配额已用完",
            "账户余额不足", "积分不足，请充值", "Quota exhausted for today", "Your quota has been exhausted.",
            "Insufficient  quota", "insufficient balance", "Insufficient credits remaining",
            "You have used all the included free usage", "Free usage exhausted"})
    void messagePhrasesAreQuotaOnAnyStatus(String message) {
        String body = "{\"error\":{\"message\":\"" + message + "\"}}";
        for (int status : new int[] {200, 400, 401, 403, 429, 500}) {
            Failure f = classify(status, body);
            assertTrue(f.quota(), message + " @" + status);
            assertEquals(FailureKind.SEMANTIC_RESPONSE_FAILED, f.kind());
            assertEquals(Scope.ACCOUNT, f.scope());
            assertEquals(message, f.message()); // stored verbatim
            assertTrue(f.billing());
            assertFalse(f.retrySameAccount());
        }
    }

    @Test
    void http402IsQuotaWhateverTheBody() {
        Failure f = classify(402, "");
        assertTrue(f.quota());
        assertEquals("upstream returned 402", f.message());
    }

    @ParameterizedTest(name = "status {0}")
    @ValueSource(ints = {401, 403, 200})
    void newApiSpentBalanceIsQuota(int status) {
        Failure f = classify(status, NEW_API_BODY);
        assertTrue(f.quota());
        assertEquals("new_api_error", f.errorType());
        assertTrue(f.message().startsWith("用户额度不足"));
    }

    @Test
    void newApiTypeIsTrimmedAndCaseInsensitiveAndTheMessageMayHaveLeadingWhitespace() {
        assertTrue(isQuota(401, "{\"error\":{\"type\":\"  New_API_Error \",\"message\":\"  用户额度不足\"}}"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"error\":{\"type\":\"upstream_error\",\"message\":\"用户额度不足, 剩余额度: ＄-0.39\"}}",
            "{\"error\":{\"type\":\"new_api_error\",\"message\":\"上游渠道报错：用户额度不足\"}}",
            "{\"type\":\"new_api_error\",\"error\":{\"message\":\"用户额度不足\"}}",
            "{\"error\":{\"message\":\"用户额度不足\"}}"})
    void relayedOrUntypedBalanceTextIsNotQuota(String body) {
        Failure f = classify(401, body);
        assertFalse(f.quota(), body);
        assertEquals(FailureKind.UPSTREAM_STATUS, f.kind());
        assertEquals(Scope.ACCOUNT, f.scope());
    }

    @Test
    void theBudgetPoolBodyFromTheSeedIsQuota() {
        String body = "{\"error\":{\"message\":\"Budget pool quota has been exhausted. Please ask an administrator "
                + "to increase the limit or select another budget pool.\",\"type\":\"bad_response_status_code\","
                + "\"param\":\"\",\"code\":\"bad_response_status_code\"}}";
        assertTrue(isQuota(429, body));
        assertTrue(isQuota(200, body));
    }

    @Test
    void quotaIsJudgedBeforePermanentAndStatusRules() {
        Failure f = classify(400, "{\"error\":{\"code\":\"insufficient_quota\",\"message\":\"invalid_grant\"}}");
        assertTrue(f.quota());
        assertEquals(FailureClass.TRANSIENT, f.failureClass());
    }
}
