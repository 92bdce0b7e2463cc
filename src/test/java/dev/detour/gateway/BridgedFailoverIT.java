package dev.detour.gateway;

import static dev.detour.gateway.BridgedRequestsIT.fixture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import dev.detour.gateway.BridgedRequestsIT.BridgeCases;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.Received;
import dev.detour.testkit.TwoUpstreamsCase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * B-1 / B-3 across protocols in one pool: an Anthropic account and an OpenAI-compatible (Chat) account,
 * each behind its own fake upstream, serving one model. Failover crosses protocols and the client sees one
 * answer in its own protocol; native comes before bridged in a tier; a feature the bridge cannot carry moves
 * the request on, or is refused with its code when no account can take it; a cut bridged stream ends once,
 * in the client's protocol.
 */
class BridgedFailoverIT extends TwoUpstreamsCase {
    private static final String MAPS = "[{\"from\":\"claude-sonnet-4-5\",\"to\":\"claude-sonnet-4-5\"}]";
    private static final String NO_RETRY = "\"failure_policy\":{\"retry_count\":0}";
    private static final String CHAT = "{\"model\":\"claude-sonnet-4-5\",\"messages\":[{\"role\":\"user\",\"content\":"
            + "\"hi\"}]";
    private static final String MESSAGES = "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":256,\"messages\":"
            + "[{\"role\":\"user\",\"content\":\"hi\"}]";
    private FakeUpstream anthropic;
    private FakeUpstream relay;

    @BeforeEach
    void nameTheUpstreams() {
        anthropic = a; // speaks Messages
        relay = b; // speaks Chat Completions (and Responses)
    }

    private long anthropicAccount(int priority) {
        return gw.account("official", anthropic, MAPS, "{\"platform\":\"anthropic\",\"priority\":" + priority + ","
                + NO_RETRY + "}");
    }

    private long relayAccount(int priority) {
        return gw.account("relay", relay, MAPS, "{\"priority\":" + priority + "," + NO_RETRY + "}");
    }

    @ParameterizedTest(name = "{0} client, stream {1}")
    @CsvSource({"messages, false", "messages, true", "chat, false", "chat, true"})
    void aRequestFailsOverFromOneProtocolToTheOtherAndIsAnsweredOnceInItsOwn(String client, boolean stream)
            throws Exception {
        // the client's native account is tried first and fails; the other protocol's account answers
        boolean messagesClient = client.equals("messages");
        FakeUpstream failing = messagesClient ? anthropic : relay;
        FakeUpstream serving = messagesClient ? relay : anthropic;
        anthropicAccount(0);
        relayAccount(0);
        failing.enqueue(messagesClient
                ? Reply.json(529, fixture("bridge/errors/anthropic-overloaded.json"))
                : Reply.json(500, "{\"error\":{\"message\":\"boom\",\"type\":\"server_error\"}}"));
        String servingProtocol = messagesClient ? "chat_completions" : "messages";
        serving.enqueue(stream ? Reply.rawSse(List.of(fixture("bridge/stream/" + servingProtocol + ".upstream.sse")))
                : Reply.json(200, fixture("bridge/" + (messagesClient ? "messages-to-chat" : "chat-to-messages")
                        + "/upstream-answer.json")));
        String body = (messagesClient ? MESSAGES : CHAT) + (!stream ? "" : messagesClient ? ",\"stream\":true"
                : ",\"stream\":true,\"stream_options\":{\"include_usage\":true}") + "}";

        Received received = gw.postReceiving(BridgeCases.path(client), body);

        assertEquals(200, received.statusCode(), received.text());
        assertFalse(received.failed(), "a whole answer");
        if (stream) {
            List<String> events = BridgeCases.events(received.text());
            assertEquals(BridgeCases.events(fixture("bridge/stream/" + servingProtocol + "-to-"
                    + (messagesClient ? "messages" : "chat_completions") + ".sse")), events, received.text());
        } else {
            JsonNode answer = Gateway.read(received.text());
            assertEquals(messagesClient ? "message" : "chat.completion", answer.path(messagesClient ? "type"
                    : "object").asText(), received.text());
        }
        assertEquals(1, failing.requestCount());
        assertEquals(1, serving.requestCount());
        JsonNode event = gw.events(1).get(0);
        assertEquals("success", event.path("outcome").asText(), event.toString());
        JsonNode attempts = event.path("attempts");
        assertEquals(2, attempts.size(), event.toString());
        assertTrue(attempts.get(0).path("bridged_to").isNull(), "the first attempt was native: " + event);
        assertEquals(BridgedRequestsIT.wire(client), attempts.get(1).path("bridged_from").asText());
        assertEquals(servingProtocol, attempts.get(1).path("bridged_to").asText());
        assertEquals(servingProtocol, event.path("upstream_protocol").asText());
    }

    @Test
    void aNativeAccountIsPreferredToABridgedOneInTheSameTier() throws Exception {
        relayAccount(0);
        anthropicAccount(0);
        for (int i = 0; i < 4; i++) {
            anthropic.enqueue(Reply.json(200, fixture("bridge/chat-to-messages/upstream-answer.json")));
            assertEquals(200, gw.postReceiving("/v1/messages", MESSAGES + "}").statusCode());
        }

        assertEquals(4, anthropic.requestCount());
        assertEquals(0, relay.requestCount());
    }

    @Test
    void aFeatureTheBridgeCannotCarryMovesTheRequestToAnAccountThatServesItNatively() throws Exception {
        relayAccount(0); // the better tier, but top_k has no Chat equivalent
        long official = anthropicAccount(1);
        anthropic.enqueue(Reply.json(200, fixture("bridge/chat-to-messages/upstream-answer.json")));

        Received received = gw.postReceiving("/v1/messages", MESSAGES + ",\"top_k\":5}");

        assertEquals(200, received.statusCode(), received.text());
        assertEquals(0, relay.requestCount());
        JsonNode event = gw.events(1).get(0);
        assertEquals(official, event.path("account_id").asLong());
        JsonNode explained = explain(event.path("id").asText());
        List<String> passedOver = new ArrayList<>();
        explained.path("passed_over").forEach(p -> passedOver.add(p.path("reason").asText()));
        assertEquals(List.of("rejected_bridge_unsupported"), passedOver, explained.toString());
    }

    @Test
    void aFeatureNoAccountCanCarryIsRefusedWithItsCodeInTheClientsEnvelope() {
        relayAccount(0);

        Received received = gw.postReceiving("/v1/messages", MESSAGES + ",\"top_k\":5}");

        assertEquals(400, received.statusCode(), received.text());
        JsonNode error = Gateway.read(received.text());
        assertEquals("error", error.path("type").asText());
        assertEquals("invalid_request_error", error.path("error").path("type").asText());
        assertEquals("bridge.unsupported.top_k", error.path("error").path("code").asText());
        assertEquals(0, relay.requestCount());
        assertEquals("bridge.unsupported.top_k", gw.events(1).get(0).path("error_code").asText());
    }

    @Test
    void aBridgedStreamCutMidWayEndsWithOneFailureInTheClientsProtocol() throws Exception {
        relayAccount(0);
        List<String> frames = List.of(fixture("bridge/stream/chat_completions.upstream.sse").split("\n\n"));
        relay.enqueue(Reply.rawSseThenCut(List.of(frames.get(0) + "\n\n", frames.get(1) + "\n\n")));

        Received received = gw.postReceiving("/v1/responses", "{\"model\":\"claude-sonnet-4-5\",\"input\":\"hi\","
                + "\"stream\":true}");

        assertTrue(received.failed(), "the body is aborted: " + received.text());
        List<String> events = BridgeCases.events(received.text());
        assertEquals(1, BridgeCases.count(events, "response.failed|"), received.text());
        assertEquals(0, BridgeCases.count(events, "response.completed|"), received.text());
        assertTrue(events.get(events.size() - 1).startsWith("response.failed|"), received.text());
        assertEquals("stream.truncated", gw.events(1).get(0).path("error_code").asText());
    }

    @Test
    void anUpstreamErrorEventInABridgedStreamIsTheClientsOneErrorEvent() throws Exception {
        relayAccount(0);
        relay.enqueue(Reply.rawSse(List.of(fixture("bridge/stream/chat_completions.error.upstream.sse"))));

        Received received = gw.postReceiving("/v1/messages", MESSAGES + ",\"stream\":true}");

        List<String> events = BridgeCases.events(received.text());
        assertEquals(1, BridgeCases.count(events, "error|"), received.text());
        assertEquals(0, BridgeCases.count(events, "message_stop|"), received.text());
        assertTrue(events.get(events.size() - 1).startsWith("error|"), received.text());
    }

    private JsonNode explain(String id) {
        return Gateway.read(gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/detour/explain/" + id))
                .header("Authorization", "Bearer " + gw.key()).GET().build()).body());
    }
}
