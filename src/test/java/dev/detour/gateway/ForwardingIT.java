package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.testkit.Gateway;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import dev.detour.testkit.TwoUpstreamsCase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/** P-1…P-3, P-8, F-1 end to end: the real App, a real MariaDB, real fake upstreams on loopback. */
class ForwardingIT extends TwoUpstreamsCase {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"},"
            + "{\"from\":\"glm-5.3\",\"to\":\"upstream-glm\"}]";
    private static final String FAST_RETRY = "{\"failure_policy\":{\"retry_count\":1,\"retry_interval_ms\":0,"
            + "\"cooldown_enabled\":true,\"cooldown_seconds\":10}}";
    @Test
    void successIsRelayedWithTheModelRewrittenAndUpstreamAuthInjected() {
        gw.account("a", a, MAPS, FAST_RETRY);
        HttpResponse<String> response = gw.chat("gpt-5.6-sol");
        assertEquals(200, response.statusCode());
        String requestId = response.headers().firstValue("x-detour-request-id").orElseThrow();
        RecordedRequest seen = a.lastRequest();
        assertEquals("/v1/chat/completions", seen.path());
        assertEquals("upstream-sol", seen.model());
        assertEquals("Bearer sk-test-a-secret", seen.header("authorization"));
        assertFalse(seen.body().contains(gw.key()), "the client's Detour key never leaves Detour");
        JsonNode event = gw.events(1).get(0);
        assertEquals(requestId, event.path("id").asText());
        assertEquals("success", event.path("outcome").asText());
        assertEquals("upstream-sol", event.path("model_key").asText());
        assertEquals("selected_priority", event.path("reason_code").asText());
        assertTrue(event.path("usage").path("input_tokens").asLong() > 0, "usage parsed: " + event);
    }

    @Test
    void aClientErrorIsReturnedAsIsOnTheFirstAccountWithNoStateChange() {
        long idA = gw.account("a", a, MAPS, "{\"priority\":0,\"failure_policy\":{\"retry_count\":2}}");
        gw.account("b", b, MAPS, "{\"priority\":1}");
        String body = "{\"error\":{\"message\":\"bad parameter: temperature\",\"type\":\"invalid_request_error\"}}";
        a.enqueue(Reply.json(400, body));
        HttpResponse<String> response = gw.chat("gpt-5.6-sol");
        assertEquals(400, response.statusCode());
        assertEquals(body, response.body());
        assertEquals(1, a.requestCount());
        assertEquals(0, b.requestCount(), "a None-class answer is never switched");
        JsonNode state = gw.accountState(idA);
        assertEquals(0, state.path("transient_failure_count").asInt());
        assertEquals(0, state.path("models").size());
        JsonNode event = gw.events(1).get(0);
        assertEquals("client_error", event.path("outcome").asText());
        assertEquals("returned_client_error", event.path("reason_code").asText());
    }

    @Test
    void aRateLimitedModelCoolsOnlyThatModelAndTheRequestSwitches() {
        long idA = gw.account("a", a, MAPS, "{\"priority\":0,\"failure_policy\":{\"retry_count\":1,"
                + "\"retry_interval_ms\":0,\"cooldown_enabled\":true}}");
        gw.account("b", b, MAPS, "{\"priority\":1}");
        a.enqueue(Reply.openAiError(429, "rate limit reached", "rate_limit_exceeded"),
                Reply.openAiError(429, "rate limit reached", "rate_limit_exceeded"));
        HttpResponse<String> response = gw.chat("gpt-5.6-sol");
        assertEquals(200, response.statusCode());
        assertEquals(1, a.requestCount(), "C-4' (revised): no same-account retry on a 429, a switch at once");
        assertEquals(1, b.requestCount());
        JsonNode state = gw.accountState(idA);
        assertEquals(1, state.path("transient_failure_count").asInt());
        assertEquals(0, state.path("cooldown_remaining_s").asInt(), "no account cooldown for a model failure");
        assertEquals(1, state.path("unavailable_model_count").asInt());
        assertEquals("upstream-sol", state.path("models").get(0).path("model_key").asText());
        assertEquals(10, state.path("models").get(0).path("cooldown_remaining_s").asInt());
        assertEquals("upstream-sol", state.path("rate_limited_models").get(0).path("model").asText());
        JsonNode event = gw.events(1).get(0);
        assertEquals("switched_after_failure", event.path("reason_code").asText());
        List<String> actions = event.path("attempts").findValuesAsText("action");
        assertEquals(List.of("switch", "final"), actions); // C-4' (revised from retry_same, switch, final)
        assertEquals("model", event.path("attempts").get(0).path("scope").asText());
    }

    @Test
    void unknownKeysGet401InTheClientsProtocolEnvelope() {
        gw.account("a", a, MAPS, null);
        HttpResponse<String> openai = gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/chat/completions"))
                .header("Authorization", "Bearer dtr-nope").POST(HttpRequest.BodyPublishers.ofString("{}")).build());
        assertEquals(401, openai.statusCode());
        assertEquals("auth.invalid_key", Gateway.read(openai.body()).path("error").path("code").asText());
        HttpResponse<String> anthropic = gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/messages"))
                .header("x-api-key", "dtr-nope").POST(HttpRequest.BodyPublishers.ofString("{}")).build());
        JsonNode envelope = Gateway.read(anthropic.body());
        assertEquals("error", envelope.path("type").asText());
        assertEquals("auth.invalid_key", envelope.path("error").path("code").asText());
        assertNotNull(anthropic.headers().firstValue("x-detour-request-id").orElse(null));
        assertEquals(2, gw.events(2).size());
    }

    @Test
    void poolErrorsCarryAStatusByCauseWithAStableCodeAndNeverTheUpstreamStatus() {
        gw.account("a", a, MAPS, null);
        HttpResponse<String> unmatched = gw.chat("no-such-model");
        assertEquals(404, unmatched.statusCode()); // P-8' (revised from 502): as the real API answers
        assertEquals("route_pool.model_unmatched",
                Gateway.read(unmatched.body()).path("error").path("detour_code").asText());
        assertEquals("model_not_found", Gateway.read(unmatched.body()).path("error").path("code").asText());
        a.handler(r -> Reply.openAiError(503, "upstream down", "server_error"));
        HttpResponse<String> failed = gw.chat("glm-5.3");
        assertEquals(503, failed.statusCode()); // P-8' (revised from 502): every attempt was a 5xx
        JsonNode error = Gateway.read(failed.body()).path("error");
        assertEquals("route_pool.all_failed", error.path("code").asText());
        String requestId = failed.headers().firstValue("x-detour-request-id").orElseThrow();
        assertTrue(error.path("message").asText().contains(requestId));
        assertFalse(error.path("message").asText().contains(a.url()), "never an upstream URL");
    }

    @Test
    void badBodiesGetStableCodesAndReachNoUpstream() throws Exception {
        gw.account("a", a, MAPS, null);
        HttpResponse<String> invalid = gw.post("/v1/chat/completions", "{\"model\":");
        assertEquals(400, invalid.statusCode());
        assertEquals("request.invalid_json", Gateway.read(invalid.body()).path("error").path("code").asText());
        HttpResponse<String> unknown = gw.post("/v1/nope", "{}");
        assertEquals(404, unknown.statusCode());
        assertEquals("request.unknown_endpoint", Gateway.read(unknown.body()).path("error").path("code").asText());
        assertEquals("HTTP/1.1 413", tooLargeStatusLine());
        assertEquals(0, a.requestCount());
        assertEquals(3, gw.events(3).size());
    }

    /** A declared 32 MiB + 1 body is refused from its headers alone, before any byte of it is read. */
    private String tooLargeStatusLine() throws java.io.IOException {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", gw.app.port())) {
            String head = "POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                    + gw.key() + "\r\nContent-Type: application/json\r\nContent-Length: " + (32 * 1024 * 1024 + 1)
                    + "\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String line = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
                    java.nio.charset.StandardCharsets.US_ASCII)).readLine();
            return line.substring(0, 12);
        }
    }

    @Test
    void modelsListsTheClientFacingNames() {
        gw.account("a", a, MAPS, null);
        HttpResponse<String> models = gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/models"))
                .header("Authorization", "Bearer " + gw.key()).GET().build());
        assertEquals(200, models.statusCode());
        assertEquals(List.of("glm-5.3", "gpt-5.6-sol"), Gateway.read(models.body()).path("data").findValuesAsText("id"));
    }
}
