package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.FakeUpstream;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import dev.detour.gateway.wire.KeyHashes;
import dev.detour.testkit.TwoUpstreamsCase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * P-12: the session and feature headers Claude Code, Codex and the SDKs send reach the upstream (the
 * Detour key never does), and S-6 stickiness follows their session header before any body field.
 */
class AgentHeadersIT extends TwoUpstreamsCase {
    private static final String MAPS = "[{\"from\":\"claude-sonnet-*\",\"to\":\"up-sonnet\"},"
            + "{\"from\":\"gpt-5.6-sol\",\"to\":\"up-sol\"}]";
    private static final String MESSAGE = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":"
            + "\"up-sonnet\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"stop_reason\":\"end_turn\","
            + "\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}";

    @BeforeEach
    void answerMessagesAndChat() {
        for (FakeUpstream up : List.of(a, b)) {
            up.handler(req -> req.path().startsWith("/v1/messages") ? Reply.json(200, MESSAGE) : Reply.chatCompletion());
        }
    }

    private long anthropicAccount(String name, FakeUpstream upstream) {
        return gw.account(name, upstream, MAPS, "{\"platform\":\"anthropic\"}");
    }

    private HttpResponse<String> claudeCode(String sessionId, String body) {
        return gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/messages"))
                .header("x-api-key", gw.key()).header("anthropic-version", "2023-06-01")
                .header("anthropic-beta", "claude-code-20250219,interleaved-thinking-2025-05-14")
                .header("x-app", "cli").header("User-Agent", "claude-cli/2.1.90 (external, cli)")
                .header("X-Claude-Code-Session-Id", sessionId).header("X-Stainless-Retry-Count", "0")
                .header("X-Stainless-Lang", "js").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private static String messages(String model, String metadata) {
        return "{\"model\":\"" + model + "\",\"max_tokens\":16," + (metadata == null ? "" : "\"metadata\":" + metadata + ",")
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    }

    @Test
    void claudeCodesSessionAndFeatureHeadersReachTheUpstreamAndTheDetourKeyDoesNot() {
        anthropicAccount("a", a);
        HttpResponse<String> r = claudeCode("cc-session-1", messages("claude-sonnet-4-5-20250929", null));
        assertEquals(200, r.statusCode(), r.body());

        RecordedRequest seen = a.lastRequest();
        Map<String, String> expected = Map.of("x-app", "cli", "x-claude-code-session-id", "cc-session-1",
                "anthropic-version", "2023-06-01", "anthropic-beta", "claude-code-20250219,interleaved-thinking-2025-05-14",
                "x-stainless-retry-count", "0", "x-stainless-lang", "js", "user-agent", "claude-cli/2.1.90 (external, cli)");
        expected.forEach((name, value) -> assertEquals(value, seen.header(name), name + " in " + seen.headers()));
        assertEquals("sk-test-a-secret", seen.header("x-api-key"), "the account's credential replaces the client's");
        assertNoDetourKey(seen);
        assertEquals("up-sonnet", seen.model());
    }

    @Test
    void codexSessionHeadersIncludingTheUnderscoredOneReachTheUpstream() {
        gw.account("a", a, MAPS, null);
        HttpResponse<String> r = gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + gw.key()).header("Content-Type", "application/json")
                .header("originator", "codex_cli_rs").header("session_id", "codex-s-1").header("session-id", "codex-s-1")
                .header("x-codex-turn-metadata", "{\"turn\":1}").header("OpenAI-Beta", "responses=experimental")
                .header("Cookie", "session=browser-only").header("X-Forwarded-For", "10.0.0.9")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"gpt-5.6-sol\",\"messages\":[]}")).build());
        assertEquals(200, r.statusCode(), r.body());

        RecordedRequest seen = a.lastRequest();
        assertEquals("codex_cli_rs", seen.header("originator"));
        assertEquals("codex-s-1", seen.header("session_id"), "an underscore in a name survives Jetty and the client");
        assertEquals("codex-s-1", seen.header("session-id"));
        assertEquals("{\"turn\":1}", seen.header("x-codex-turn-metadata"));
        assertEquals("responses=experimental", seen.header("openai-beta"));
        assertEquals("Bearer sk-test-a-secret", seen.header("authorization"));
        assertNull(seen.header("cookie"), "not on the forward list");
        assertNull(seen.header("x-forwarded-for"), "not on the forward list");
        assertNoDetourKey(seen);
    }

    @Test
    void twoRequestsWithTheSameClaudeCodeSessionHeaderStickToOneAccount() {
        long idA = anthropicAccount("a", a);
        long idB = anthropicAccount("b", b);
        for (int i = 0; i < 12; i++) {
            // no body field names a conversation: only the header can keep these together
            assertEquals(200, claudeCode("cc-sticky", messages("claude-sonnet-4-5-20250929", null)).statusCode());
            gw.clock.advance(Duration.ofSeconds(1));
        }
        assertTrue(a.requestCount() == 12 || b.requestCount() == 12,
                "all on one account: a=" + a.requestCount() + " b=" + b.requestCount());
        assertEquals("kept_session_affinity", gw.events(12).get(11).path("reason_code").asText());
        gw.app.load().bindings().flush();
        assertEquals(List.of(KeyHashes.sha256Hex("cc-sticky")), Db.strings("SELECT session_hash FROM session_bindings"));
        assertEquals(Long.toString(a.requestCount() == 12 ? idA : idB),
                Db.string("SELECT account_id FROM session_bindings"));
    }

    @Test
    void theSessionHeaderOutranksTheBodyAndClaudeCodesUserIdSessionOutranksOtherBodyFields() {
        anthropicAccount("a", a);
        String jsonUserId = "{\"user_id\":\"{\\\"device_id\\\":\\\"d\\\",\\\"account_uuid\\\":\\\"\\\","
                + "\\\"session_id\\\":\\\"54c1eb09-bc4c\\\"}\",\"conversation_id\":\"body-conv\"}";
        assertEquals(200, claudeCode("header-wins", messages("claude-sonnet-4-5", jsonUserId)).statusCode());
        gw.app.load().bindings().flush();
        assertEquals(List.of(KeyHashes.sha256Hex("header-wins")),
                Db.strings("SELECT session_hash FROM session_bindings"));

        HttpResponse<String> noHeader = gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/messages"))
                .header("x-api-key", gw.key()).header("anthropic-version", "2023-06-01")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(messages("claude-sonnet-4-6", jsonUserId))).build());
        assertEquals(200, noHeader.statusCode(), noHeader.body());
        gw.app.load().bindings().flush();
        assertTrue(Db.strings("SELECT session_hash FROM session_bindings").contains(KeyHashes.sha256Hex("54c1eb09-bc4c")),
                "metadata.user_id's session_id, not metadata.conversation_id");
        assertFalse(Db.strings("SELECT session_hash FROM session_bindings").contains(KeyHashes.sha256Hex("body-conv")));
    }

    private void assertNoDetourKey(RecordedRequest seen) {
        String key = gw.key();
        seen.headers().forEach((name, value) -> assertFalse(value.contains(key), name + " carries the Detour key"));
        assertNull(seen.header("x-detour-request-id"));
    }
}
