package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import dev.detour.testkit.TwoUpstreamsCase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * B-5: an account's anthropic-beta policy decides what its upstream gets of Claude Code's beta header (the
 * fake upstream records what it received); the policy is part of the account's document and audit entry.
 */
class AnthropicBetaIT extends TwoUpstreamsCase {
    private static final String MAPS = "[{\"from\":\"claude-sonnet-*\",\"to\":\"up-sonnet\"}]";
    private static final String BETAS = "claude-code-20250219,interleaved-thinking-2025-05-14,context-1m-2025-08-07";
    private static final String MESSAGE = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":"
            + "\"up-sonnet\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"stop_reason\":\"end_turn\","
            + "\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}";

    @BeforeEach
    void answerMessages() {
        a.handler(req -> Reply.json(200, MESSAGE));
    }

    private long account(String policyJson) {
        return gw.account("relay", a, MAPS, "{\"platform\":\"anthropic\"" + (policyJson == null ? ""
                : ",\"anthropic_beta\":" + policyJson) + "}");
    }

    private RecordedRequest claudeCode() {
        HttpResponse<String> r = gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/messages"))
                .header("x-api-key", gw.key()).header("anthropic-version", "2023-06-01")
                .header("anthropic-beta", BETAS).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":16,"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")).build());
        assertEquals(200, r.statusCode(), r.body());
        return a.lastRequest();
    }

    @Test
    void byDefaultTheHeaderPassesAsSent() {
        JsonNode doc = gw.admin("GET", "/accounts/" + account(null), null);
        assertEquals("pass", doc.path("anthropic_beta").path("mode").asText(), doc.toString());
        assertEquals(BETAS, claudeCode().header("anthropic-beta"));
    }

    @Test
    void aStripPolicyRemovesOnlyTheListedFlags() {
        account("{\"mode\":\"strip\",\"flags\":[\"context-1m-2025-08-07\",\"Interleaved-Thinking-2025-05-14\"]}");
        assertEquals("claude-code-20250219", claudeCode().header("anthropic-beta"));
    }

    @Test
    void stripAllOrStrippingEveryFlagSendsNoHeaderAndTheRestOfTheRequestIsUnchanged() {
        long id = account("{\"mode\":\"strip_all\"}");
        RecordedRequest seen = claudeCode();
        assertNull(seen.header("anthropic-beta"), seen.headers().toString());
        assertEquals("2023-06-01", seen.header("anthropic-version"));
        assertEquals("up-sonnet", seen.model());

        gw.admin("PUT", "/accounts/" + id, "{\"anthropic_beta\":{\"mode\":\"strip\",\"flags\":"
                + "[\"claude-code-20250219\",\"interleaved-thinking-2025-05-14\",\"context-1m-2025-08-07\"]}}");
        gw.settled();
        assertNull(claudeCode().header("anthropic-beta"), "no empty header when every flag is stripped");
    }

    @Test
    void aChangedPolicyIsInTheDocumentAndTheAuditEntry() {
        long id = account(null);
        JsonNode doc = gw.admin("PUT", "/accounts/" + id, "{\"anthropic_beta\":{\"mode\":\"strip\",\"flags\":[\"a-1\"]}}");
        assertEquals("strip", doc.path("anthropic_beta").path("mode").asText(), doc.toString());
        assertEquals("a-1", doc.path("anthropic_beta").path("flags").get(0).asText(), doc.toString());
        JsonNode audit = gw.admin("GET", "/audit", null);
        assertEquals(true, audit.toString().contains("\"anthropic_beta\":{\"mode\":\"strip\",\"flags\":[\"a-1\"]}"),
                audit.toString());
    }
}
