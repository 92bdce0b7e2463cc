package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.Bodies;
import dev.detour.fake.Reply;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.Received;
import dev.detour.testkit.TwoUpstreamsCase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * B-6: an account's {@code bridge_reasoning} decides whether a translated request carries the client's
 * reasoning — Claude Code turns thinking on by default, and a Chat relay that refuses {@code reasoning_effort}
 * would answer every bridged request 400. Off, the relay gets no reasoning parameter at all; a request in the
 * account's own protocol is still passed as sent; the setting is in the account's document and audit entry.
 */
class BridgeReasoningIT extends TwoUpstreamsCase {
    private static final String MAPS = "[{\"from\":\"claude-sonnet-*\",\"to\":\"relay-model\"}]";
    private static final String THINKING_REQUEST = "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":2048,"
            + "\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    @BeforeEach
    void answerChat() {
        a.handler(req -> Reply.json(200, Bodies.chatCompletion("relay-model", "hi")));
    }

    private long relay(String extra) {
        return gw.account("relay", a, MAPS, "{\"platform\":\"openai-compatible\",\"protocols\":[\"chat_completions\"]"
                + extra + "}");
    }

    private JsonNode relayed(String path, String body) {
        Received received = gw.postReceiving(path, body);
        assertEquals(200, received.statusCode(), received.text());
        return Gateway.read(a.lastRequest().body());
    }

    @Test
    void byDefaultAClientsThinkingReachesAChatRelayAsReasoningEffort() {
        JsonNode doc = gw.admin("GET", "/accounts/" + relay(""), null);
        assertTrue(doc.path("bridge_reasoning").asBoolean(), doc.toString());
        assertTrue(relayed("/v1/messages", THINKING_REQUEST).has("reasoning_effort"));
    }

    @Test
    void anAccountThatTakesNoReasoningParametersGetsNoneThroughTheBridgeButItsOwnProtocolPassesAsSent() {
        long id = relay(",\"bridge_reasoning\":false");
        JsonNode bridged = relayed("/v1/messages", THINKING_REQUEST);
        assertFalse(bridged.has("reasoning_effort"), bridged.toString());
        assertFalse(bridged.has("thinking"), bridged.toString());
        assertEquals("hi", bridged.path("messages").get(0).path("content").asText(), "the rest is translated as before");

        JsonNode nativeBody = relayed("/v1/chat/completions", "{\"model\":\"claude-sonnet-4-5\",\"reasoning_effort\":"
                + "\"low\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertEquals("low", nativeBody.path("reasoning_effort").asText(), "the client's own parameter is its own");

        JsonNode doc = gw.admin("PUT", "/accounts/" + id, "{\"bridge_reasoning\":true}");
        assertTrue(doc.path("bridge_reasoning").asBoolean(), doc.toString());
        JsonNode audit = gw.admin("GET", "/audit", null);
        assertTrue(audit.toString().contains("\"bridge_reasoning\":false"), audit.toString());
        gw.settled();
        assertTrue(relayed("/v1/messages", THINKING_REQUEST).has("reasoning_effort"), "switched back on");
    }

    @Test
    void aBridgeReasoningThatIsNotABooleanIsRefusedAtItsField() {
        JsonNode refused = gw.admin("PUT", "/accounts/" + relay(""), "{\"bridge_reasoning\":\"no\"}");
        assertTrue(refused.toString().contains("validation.bridge_reasoning"), refused.toString());
    }
}
