package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.gateway.admission.SmartKeyFacts;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import dev.detour.testkit.TwoUpstreamsCase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * P-10': a {@code conversation}, or a {@code previous_response_id} Detour has no binding for (never seen,
 * or older than its 24 h binding), reaches one account and is never replayed on another once dispatched;
 * the event and the explanation say so with {@code state_bound_unknown}. Before: a 500 on the first
 * account sent it to the second, where the state does not exist.
 */
class StateBoundUnknownIT extends TwoUpstreamsCase {
    private static final String MAPS = "[{\"from\":\"m\",\"to\":\"up\"}]";
    private long idA;

    @BeforeEach
    void accounts() {
        // a first (priority 0), b second: without P-10' a failure on a would go to b
        idA = gw.account("a", a, MAPS, "{\"priority\":0}");
        gw.account("b", b, MAPS, "{\"priority\":1}");
    }

    @Test
    void aConversationRequestAnswered500IsNotSentToASecondAccountNorTwiceToTheFirst() {
        a.enqueue(Reply.openAiError(500, "boom", "server_error"));
        HttpResponse<String> r = gw.post("/v1/responses",
                "{\"model\":\"m\",\"input\":\"hi\",\"conversation\":\"conv_never_seen\"}");

        assertNotEquals(200, r.statusCode(), r.body());
        assertEquals(0, b.requestCount(), "the second upstream saw nothing");
        assertEquals(1, a.requestCount(), "a conversation appends upstream: no same-account retry either");
        assertStateBoundUnknown(r, 1);
    }

    @Test
    void anUnknownPreviousResponseIdAnswered500IsNotSentToASecondAccount() {
        a.handler(req -> Reply.openAiError(500, "boom", "server_error"));
        HttpResponse<String> r = gw.post("/v1/responses",
                "{\"model\":\"m\",\"input\":\"more\",\"previous_response_id\":\"resp_from_elsewhere\"}");

        assertNotEquals(200, r.statusCode(), r.body());
        assertEquals(0, b.requestCount(), "the second upstream saw nothing");
        assertTrue(a.requestCount() >= 1);
        assertStateBoundUnknown(r, 1);
    }

    @Test
    void aPreviousResponseIdOlderThanItsBindingIsUnknownAgain() {
        a.enqueue(Reply.json(200, "{\"id\":\"resp_old\",\"object\":\"response\",\"status\":\"completed\","
                + "\"output\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}"));
        assertEquals(200, gw.post("/v1/responses", "{\"model\":\"m\",\"input\":\"hi\"}").statusCode());
        assertEquals(Long.valueOf(idA), gw.app.smartKeys().boundAccount("resp_old", gw.clock.instant()));

        gw.clock.advance(SmartKeyFacts.BINDING_TTL.plus(Duration.ofMinutes(1)));
        a.handler(req -> Reply.openAiError(500, "boom", "server_error"));
        HttpResponse<String> r = gw.post("/v1/responses",
                "{\"model\":\"m\",\"input\":\"more\",\"previous_response_id\":\"resp_old\"}");

        assertNotEquals(200, r.statusCode(), r.body());
        assertEquals(0, b.requestCount());
        assertStateBoundUnknown(r, 2);
    }

    @Test
    void anUnknownConversationThatNeverReachedTheFirstAccountMayStillGoToTheNext() {
        a.close(); // connection refused: the upstream never saw the request, so no state can be there
        b.enqueue(Reply.json(200, "{\"id\":\"resp_b1\",\"object\":\"response\",\"status\":\"completed\","
                + "\"output\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}"));
        HttpResponse<String> r = gw.post("/v1/responses",
                "{\"model\":\"m\",\"input\":\"hi\",\"conversation\":\"conv_fresh\"}");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(1, b.requestCount());
    }

    @Test
    void aServedConversationIsBoundToItsAccountSoItsNextRequestsReturnThere() {
        a.enqueue(Reply.json(200, "{\"id\":\"resp_c1\",\"object\":\"response\",\"status\":\"completed\","
                + "\"output\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}"));
        HttpResponse<String> first = gw.post("/v1/responses",
                "{\"model\":\"m\",\"input\":\"hi\",\"conversation\":{\"id\":\"conv_1\"}}");
        assertEquals(200, first.statusCode(), first.body());
        assertEquals(Long.valueOf(idA),
                gw.app.smartKeys().boundAccount("conversation:conv_1", gw.clock.instant()));

        gw.admin("PUT", "/accounts/" + idA, "{\"enabled\":false}");
        HttpResponse<String> next = gw.post("/v1/responses",
                "{\"model\":\"m\",\"input\":\"more\",\"conversation\":\"conv_1\"}");
        assertEquals(Router.STATE_BOUND_UNAVAILABLE, Gateway.read(next.body()).path("error").path("code").asText());
        assertEquals(0, b.requestCount(), "its state lives on a: never sent elsewhere");
    }

    @Test
    void anOrdinaryResponsesRequestStillFailsOver() {
        a.enqueue(Reply.openAiError(500, "boom", "server_error"));
        a.enqueue(Reply.openAiError(500, "boom", "server_error"));
        a.enqueue(Reply.openAiError(500, "boom", "server_error"));
        b.enqueue(Reply.json(200, "{\"id\":\"resp_b\",\"object\":\"response\",\"status\":\"completed\","
                + "\"output\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}"));
        assertEquals(200, gw.post("/v1/responses", "{\"model\":\"m\",\"input\":\"hi\"}").statusCode());
        assertEquals(1, b.requestCount());
    }

    /** {@code r} is the {@code nth} request of the test: its event is the last of n written. */
    private void assertStateBoundUnknown(HttpResponse<String> r, int nth) {
        String id = r.headers().firstValue("x-detour-request-id").orElseThrow();
        List<JsonNode> events = gw.events(nth);
        JsonNode event = events.get(events.size() - 1);
        assertEquals(id, event.path("id").asText());
        assertEquals("state_bound_unknown", event.path("reason_code").asText());
        HttpResponse<String> explained = gw.send(HttpRequest.newBuilder(URI.create(gw.base()
                + "/v1/detour/explain/" + id)).header("Authorization", "Bearer " + gw.key()).GET().build());
        assertEquals(200, explained.statusCode(), explained.body());
        assertEquals("state_bound_unknown", Gateway.read(explained.body()).path("reason_code").asText());
    }
}
