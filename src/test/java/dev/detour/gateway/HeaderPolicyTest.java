package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** upstream response headers reach the client only through the allow-list, in any case. */
class HeaderPolicyTest {
    @ParameterizedTest
    @ValueSource(strings = {"content-type", "Content-Type", "Content-Encoding", "cache-control", "Retry-After",
            "retry-after-ms", "x-should-retry", "X-Request-Id", "request-id", "openai-version", "openai-processing-ms",
            "x-ratelimit-limit-requests", "X-RateLimit-Remaining-Tokens", "x-ratelimit-reset-requests",
            "anthropic-ratelimit-requests-remaining", "anthropic-ratelimit-unified-reset"})
    void whatTheBodyNeedsTheIdsAndTheRetryAndRateLimitHintsPass(String name) {
        assertTrue(HeaderPolicy.allowedToClient(name), name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"openai-organization", "OpenAI-Organization", "openai-project", "anthropic-organization-id",
            "set-cookie", "Set-Cookie", "server", "date", "via", "cf-ray", "x-powered-by", "content-length",
            "transfer-encoding", "connection", "keep-alive", "strict-transport-security", "alt-svc", "x-ratelimit-",
            "x-ratelimit", "anthropic-ratelimit-", "x-request-ids", "request", "x-upstream-key", ""})
    void organisationIdsCookiesServerDetailsAndEverythingElseStay(String name) {
        assertFalse(HeaderPolicy.allowedToClient(name), name);
    }

    @Test
    void toClientKeepsTheAllowedHeadersInOrderWithTheirOriginalNames() {
        List<Header> kept = HeaderPolicy.toClient(List.of(new Header("Content-Type", "application/json"),
                new Header("openai-organization", "org-x"), new Header("Set-Cookie", "a=b"),
                new Header("X-Request-Id", "req_1"), new Header("x-ratelimit-remaining-requests", "9")));

        assertEquals(List.of(new Header("Content-Type", "application/json"), new Header("X-Request-Id", "req_1"),
                new Header("x-ratelimit-remaining-requests", "9")), kept);
    }
}
