package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import dev.detour.testkit.TwoUpstreamsCase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * SPEC §12 P-8', C-4', C-1' end to end over real HTTP: the client-facing status follows the cause (404
 * unmatched, 429 rate limits with Retry-After, 503/529 overload), a 429 is never retried on the same
 * account and its stated window is respected without calling the upstream, and a 503's reset hint is
 * no reason to stay away longer than the policy window.
 */
class HonestFailureStatusIT extends TwoUpstreamsCase {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    /** Two same-account retries allowed with no pause: only C-4' can stop them. */
    private static final String RETRIES = "{\"failure_policy\":{\"retry_count\":2,\"retry_interval_ms\":0}}";
    private static final String MESSAGE = "{\"model\":\"%s\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\","
            + "\"content\":\"hi\"}]}";

    private HttpResponse<String> messages(String model) {
        return gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/messages")).header("x-api-key", gw.key())
                .header("anthropic-version", "2023-06-01").header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(String.format(MESSAGE, model))).build());
    }

    private static JsonNode error(HttpResponse<String> response) {
        return Gateway.read(response.body()).path("error");
    }

    private static String retryAfter(HttpResponse<String> response) {
        return response.headers().firstValue("retry-after").orElse(null);
    }

    @Test
    void aRateLimitWithRetryAfterIsNotRetriedAndTheNextRequestGets429WithoutCallingTheUpstream() {
        gw.account("a", a, MAPS, RETRIES);
        a.enqueue(Reply.openAiError(429, "rate limit reached", "rate_limit_exceeded").header("retry-after", "20"));

        HttpResponse<String> first = gw.chat("gpt-5.6-sol");
        assertEquals(429, first.statusCode(), first.body());
        assertEquals("20", retryAfter(first));
        assertEquals("route_pool.all_failed", error(first).path("code").asText());
        assertEquals("rate_limit_error", error(first).path("type").asText());
        assertTrue(error(first).path("message").asText().contains("1 attempt(s)"), first.body());
        assertTrue(error(first).path("message").asText()
                .contains(first.headers().firstValue("x-detour-request-id").orElseThrow()));
        assertEquals(1, a.requestCount(), "no same-account retry on a 429 (retry_count 2 would allow two)");

        gw.clock.advance(Duration.ofSeconds(5));
        HttpResponse<String> second = gw.chat("gpt-5.6-sol");
        assertEquals(429, second.statusCode(), second.body());
        assertEquals("15", retryAfter(second), "seconds until the stated window ends");
        assertEquals("route_pool.rate_limited", error(second).path("code").asText());
        assertEquals("rate_limit_error", error(second).path("type").asText());
        assertEquals(1, a.requestCount(), "inside the upstream's stated window nobody is called");

        gw.clock.advance(Duration.ofSeconds(16));
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        assertEquals(2, a.requestCount());
    }

    @Test
    void anAnthropicCallerGetsTheRateLimitInItsOwnEnvelope() {
        gw.account("a", a, MAPS, "{\"platform\":\"anthropic\",\"failure_policy\":{\"retry_count\":2,"
                + "\"retry_interval_ms\":0}}");
        a.enqueue(Reply.json(429, "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\","
                + "\"message\":\"Number of requests has exceeded your rate limit\"}}").header("retry-after", "30"));

        HttpResponse<String> response = messages("gpt-5.6-sol");

        assertEquals(429, response.statusCode(), response.body());
        assertEquals("30", retryAfter(response));
        assertEquals("error", Gateway.read(response.body()).path("type").asText());
        assertEquals("rate_limit_error", error(response).path("type").asText());
        assertEquals(1, a.requestCount());
    }

    @Test
    void whenEveryRouteIsOverloadedAnOpenAiCallerGets503WithRetryAfter() {
        gw.account("a", a, MAPS, "{\"priority\":0,\"failure_policy\":{\"retry_count\":0}}");
        gw.account("b", b, MAPS, "{\"priority\":1,\"failure_policy\":{\"retry_count\":0}}");
        a.enqueue(Reply.openAiError(503, "upstream down", "server_error"));
        b.enqueue(Reply.json(529, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                + "\"message\":\"Overloaded\"}}"));

        HttpResponse<String> response = gw.chat("gpt-5.6-sol");

        assertEquals(503, response.statusCode(), response.body());
        assertEquals("route_pool.all_failed", error(response).path("code").asText());
        assertTrue(error(response).path("message").asText().contains("2 attempt(s)"), response.body());
        assertEquals("10", retryAfter(response), "both routes cool for the new default window (C-1')");
        assertEquals(1, a.requestCount());
        assertEquals(1, b.requestCount());
    }

    @Test
    void whenEveryRouteIsOverloadedAnAnthropicCallerGets529OverloadedError() {
        gw.account("a", a, MAPS, "{\"platform\":\"anthropic\",\"priority\":0,\"failure_policy\":{\"retry_count\":0}}");
        gw.account("b", b, MAPS, "{\"platform\":\"anthropic\",\"priority\":1,\"failure_policy\":{\"retry_count\":0}}");
        String overloaded = "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";
        a.enqueue(Reply.json(529, overloaded));
        b.enqueue(Reply.json(503, "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"down\"}}"));

        HttpResponse<String> response = messages("gpt-5.6-sol");

        assertEquals(529, response.statusCode(), response.body());
        assertEquals("error", Gateway.read(response.body()).path("type").asText());
        assertEquals("overloaded_error", error(response).path("type").asText());
        assertEquals("route_pool.all_failed", error(response).path("code").asText());
        assertEquals("10", retryAfter(response));
    }

    @Test
    void aRateLimitOnOneRouteAndAnOutageOnTheOtherIsAMixAnswered502() {
        gw.account("a", a, MAPS, "{\"priority\":0,\"failure_policy\":{\"retry_count\":0}}");
        gw.account("b", b, MAPS, "{\"priority\":1,\"failure_policy\":{\"retry_count\":0}}");
        a.enqueue(Reply.openAiError(429, "rate limit reached", "rate_limit_exceeded"));
        b.enqueue(Reply.openAiError(500, "boom", "server_error"));

        HttpResponse<String> response = gw.chat("gpt-5.6-sol");

        assertEquals(502, response.statusCode(), response.body());
        assertEquals("route_pool.all_failed", error(response).path("code").asText());
        assertEquals(null, retryAfter(response));
    }

    @Test
    void anUnmappedModelIs404InEachProtocolsEnvelopeAndExplainsNoCheaperRoute() {
        gw.account("a", a, MAPS, null);
        gw.account("b", b, MAPS, "{\"platform\":\"anthropic\"}");

        HttpResponse<String> chat = gw.chat("no-such-model");
        assertEquals(404, chat.statusCode(), chat.body());
        assertEquals("invalid_request_error", error(chat).path("type").asText());
        // OpenAI's own code for an unknown model (Codex stops only on it); Detour's stable code beside it
        assertEquals("model_not_found", error(chat).path("code").asText());
        assertEquals("route_pool.model_unmatched", error(chat).path("detour_code").asText());
        String requestId = chat.headers().firstValue("x-detour-request-id").orElseThrow();
        assertTrue(error(chat).path("message").asText().contains("0 attempts; request " + requestId), chat.body());

        HttpResponse<String> anthropic = messages("no-such-model");
        assertEquals(404, anthropic.statusCode(), anthropic.body());
        assertEquals("error", Gateway.read(anthropic.body()).path("type").asText());
        assertEquals("not_found_error", error(anthropic).path("type").asText());
        assertEquals("route_pool.model_unmatched", error(anthropic).path("code").asText());
        assertEquals(0, a.requestCount() + b.requestCount());

        gw.events(2);
        HttpResponse<String> explained = gw.send(HttpRequest.newBuilder(URI.create(gw.base()
                + "/v1/detour/explain/" + requestId)).header("Authorization", "Bearer " + gw.key()).GET().build());
        assertEquals(200, explained.statusCode(), explained.body());
        JsonNode passed = Gateway.read(explained.body()).path("passed_over");
        assertFalse(passed.isEmpty(), explained.body());
        passed.forEach(p -> assertFalse(p.path("cheaper").asBoolean(), "a refusal chose no route to compare: " + p));
    }

    @Test
    void a503WithARateLimitResetHintCoolsOnlyForThePolicyWindow() {
        long id = gw.account("a", a, MAPS, "{\"failure_policy\":{\"retry_count\":0}}");
        a.enqueue(Reply.openAiError(503, "upstream down", "server_error").header("x-ratelimit-reset-requests", "25m"));

        HttpResponse<String> response = gw.chat("gpt-5.6-sol");
        assertEquals(503, response.statusCode(), response.body());
        assertEquals("10", retryAfter(response));
        JsonNode model = gw.accountState(id).path("models").get(0);
        assertEquals(10, model.path("cooldown_remaining_s").asInt(), "the policy window, not 25 minutes: " + model);

        gw.clock.advance(Duration.ofSeconds(11));
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        assertEquals(2, a.requestCount());
    }

    @Test
    void aNewAccountHasCooldownOnForTenSecondsByDefault() {
        long id = gw.account("a", a, MAPS, null);

        JsonNode policy = gw.admin("GET", "/accounts/" + id, null).path("failure_policy");
        assertTrue(policy.path("cooldown_enabled").asBoolean(), policy.toString());
        assertEquals(10, policy.path("cooldown_seconds").asInt());
    }

    @Test
    void aStateBoundRequestWhoseAccountIsInsideAStatedWindowWaitsWith429NotALoss() {
        long id = gw.account("a", a, MAPS, RETRIES);
        a.enqueue(Reply.json(200, "{\"id\":\"resp_abc\",\"object\":\"response\",\"status\":\"completed\","
                + "\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}"));
        assertEquals(200, gw.post("/v1/responses", "{\"model\":\"gpt-5.6-sol\",\"input\":\"hi\"}").statusCode());
        Gateway.await(() -> Long.valueOf(id).equals(gw.app.database().read(s -> s.getMapper(
                dev.detour.adapter.db.SmartMapper.class).selectResponseBinding("resp_abc", gw.clock.instant()))),
                "binding written");
        String next = "{\"model\":\"gpt-5.6-sol\",\"input\":\"more\",\"previous_response_id\":\"resp_abc\"}";
        a.enqueue(Reply.openAiError(429, "rate limit reached", "rate_limit_exceeded").header("retry-after", "20"));

        HttpResponse<String> limited = gw.post("/v1/responses", next);
        assertEquals(429, limited.statusCode(), limited.body());
        HttpResponse<String> waiting = gw.post("/v1/responses", next);
        assertEquals(429, waiting.statusCode(), waiting.body());
        assertEquals("route_pool.rate_limited", error(waiting).path("code").asText());
        assertEquals("20", retryAfter(waiting));
        assertEquals(2, a.requestCount(), "the bound account is not called inside its stated window");
    }
}
