package dev.detour.gateway.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.RequestPeek;
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

    @ParameterizedTest
    @ValueSource(strings = {"content-type", "accept", "user-agent", "openai-beta", "x-app", "x-claude-code-session-id",
            "session-id", "session_id", "originator", "conversation_id", "anthropic-version", "anthropic-beta",
            "anthropic-dangerous-direct-browser-access", "x-codex-turn-metadata", "x-codex-beta-features",
            "x-stainless-retry-count", "x-stainless-timeout", "x-stainless-lang", "x-stainless-package-version"})
    void agentSessionAndFeatureHeadersGoUpstream(String name) {
        assertTrue(HeaderPolicy.forwardedUpstream(name), name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"authorization", "x-api-key", "proxy-authorization", "cookie", "host", "content-length",
            "connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "accept-encoding",
            "x-forwarded-for", "forwarded", "x-real-ip", "anthropic-", "x-codex-", "x-stainless-", "chatgpt-account-id",
            "openai-organization", "x-detour-request-id", ""})
    void theDetourKeyHopByHopAndEverythingElseStay(String name) {
        assertFalse(HeaderPolicy.forwardedUpstream(name), name);
    }

    @Test
    void upstreamCarriesTheAccountsCredentialInsteadOfTheClientsKey() {
        ClientCall call = new ClientCall("req-1", dev.detour.core.account.EndpointFamily.MESSAGES, "POST",
                "/v1/messages", List.of(new Header("X-Api-Key", "dk-client-key"), new Header("Authorization",
                        "Bearer dk-client-key"), new Header("X-Claude-Code-Session-Id", "s-1"),
                        new Header("session_id", "s-2"), new Header("Connection", "keep-alive"),
                        new Header("X-Stainless-Retry-Count", "0")), new byte[0], RequestPeek.EMPTY, null,
                "127.0.0.1", java.time.Instant.EPOCH, 0);
        var account = dev.detour.testkit.AccountMother.account(1).build();

        List<Header> sent = HeaderPolicy.upstream(call, account, "sk-upstream");

        assertTrue(sent.contains(new Header("x-claude-code-session-id", "s-1")), sent.toString());
        assertTrue(sent.contains(new Header("session_id", "s-2")), sent.toString());
        assertTrue(sent.contains(new Header("x-stainless-retry-count", "0")), sent.toString());
        assertFalse(sent.stream().anyMatch(h -> h.value().contains("dk-client-key")), sent.toString());
        assertFalse(sent.stream().anyMatch(h -> h.name().equalsIgnoreCase("connection")), sent.toString());
        assertTrue(sent.stream().anyMatch(h -> h.value().contains("sk-upstream")), sent.toString());
    }

    @Test
    void theAccountsBetaPolicyDecidesWhatOfAnthropicBetaGoesUpstreamAndNothingElseChanges() {
        ClientCall call = new ClientCall("req-1", dev.detour.core.account.EndpointFamily.MESSAGES, "POST",
                "/v1/messages", List.of(new Header("Anthropic-Beta", "claude-code-20250219,context-1m-2025-08-07"),
                        new Header("anthropic-version", "2023-06-01")), new byte[0], RequestPeek.EMPTY, null,
                "127.0.0.1", java.time.Instant.EPOCH, 0);
        var passing = dev.detour.testkit.AccountMother.account(1).build();
        var stripping = dev.detour.testkit.AccountMother.account(2).anthropicBeta("strip", "context-1m-2025-08-07").build();
        var strippingAll = dev.detour.testkit.AccountMother.account(3).anthropicBeta("strip_all").build();

        assertTrue(HeaderPolicy.upstream(call, passing, "sk-up").contains(
                new Header("anthropic-beta", "claude-code-20250219,context-1m-2025-08-07")));
        List<Header> stripped = HeaderPolicy.upstream(call, stripping, "sk-up");
        assertTrue(stripped.contains(new Header("anthropic-beta", "claude-code-20250219")), stripped.toString());
        List<Header> none = HeaderPolicy.upstream(call, strippingAll, "sk-up");
        assertFalse(none.stream().anyMatch(h -> h.name().equals("anthropic-beta")), none.toString());
        assertTrue(none.contains(new Header("anthropic-version", "2023-06-01")), none.toString());
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
