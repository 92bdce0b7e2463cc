package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.Reply;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TwoUpstreamsCase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * B-5 through the real App: count_tokens estimated by Detour when the account a Messages request would reach
 * speaks another protocol (no upstream asked, no account touched), forwarded to an Anthropic account as
 * before; and /v1/models listing to an Anthropic caller the models only an OpenAI-compatible account maps.
 */
class BridgeKitIT extends TwoUpstreamsCase {
    private static final String SONNET = "[{\"from\":\"claude-sonnet-*\",\"to\":\"up-sonnet\"}]";
    /** Anthropic's own example; it counts 14 (TokenEstimateTest's basic fixture). */
    private static final String COUNT = "{\"model\":\"claude-sonnet-4-5\",\"system\":\"You are a scientist\","
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Hello, Claude\"}]}";

    private HttpResponse<String> anthropic(HttpRequest.Builder b) {
        return gw.send(b.header("x-api-key", gw.key()).header("anthropic-version", "2023-06-01").build());
    }

    private HttpResponse<String> countTokens() {
        return anthropic(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/messages/count_tokens"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(COUNT)));
    }

    @Test
    void countTokensForAnAccountReachedByABridgeIsAnsweredLocallyLabelledAndNeverReachesItsUpstream() {
        // openai-compatible with the default protocols (Chat, Responses), so it does not count Claude's tokens:
        // B-1 reaches it for a Messages request through the bridge.
        long relay = gw.account("relay", a, SONNET, null);
        HttpResponse<String> r = countTokens();

        assertEquals(200, r.statusCode(), r.body());
        assertEquals(14, Gateway.read(r.body()).path("input_tokens").asInt(), r.body());
        assertEquals("local", r.headers().firstValue("x-detour-estimate").orElse(null));
        assertEquals(0, a.requestCount(), "the estimate never reaches the upstream");
        JsonNode event = gw.events(1).get(0);
        assertEquals(200, event.path("status").asInt(), event.toString());
        assertEquals(0, event.path("attempts").size(), "no attempt, so no account's health moves: " + event);
        assertTrue(event.path("account_id").isNull(), event.toString());
        JsonNode state = gw.accountState(relay);
        assertEquals("ok", state.path("status").asText(), state.toString());
        assertEquals(0, state.path("models").size(), "no model row written: " + state);
    }

    @Test
    void anAnthropicAccountKeepsCountingItself() {
        gw.account("official", b, SONNET, "{\"platform\":\"anthropic\"}");
        b.handler(req -> Reply.json(200, "{\"input_tokens\":99}"));
        HttpResponse<String> r = countTokens();

        assertEquals(200, r.statusCode(), r.body());
        assertEquals(99, Gateway.read(r.body()).path("input_tokens").asInt());
        assertNull(r.headers().firstValue("x-detour-estimate").orElse(null));
        assertEquals("/v1/messages/count_tokens", b.lastRequest().path());
    }

    @Test
    void anAnthropicCallerSeesModelsMappedOnlyOnAnOpenAiCompatibleAccount() {
        gw.account("relay", a, "[{\"from\":\"glm-5.3\",\"to\":\"glm-5.3\"}]", null);
        gw.account("embedder", b, "[{\"from\":\"text-embedding-3-small\",\"to\":\"te3s\"}]",
                "{\"endpoint_families\":[\"embeddings\"]}");
        HttpResponse<String> r = anthropic(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/models")).GET());

        assertEquals(200, r.statusCode(), r.body());
        assertEquals(List.of("glm-5.3"), Gateway.read(r.body()).path("data").findValuesAsText("id"),
                "reached through a bridge; embeddings are never bridged");
        HttpResponse<String> one = anthropic(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/models/glm-5.3")).GET());
        assertEquals(200, one.statusCode(), one.body());
    }
}
