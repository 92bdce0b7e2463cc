package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * P-12: {@code GET /v1/models} in the caller's protocol, {@code GET /v1/models/{id}}, and prefix-pattern
 * mappings serving dated model ids, end to end over HTTP.
 */
class ModelsEndpointIT {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"},"
            + "{\"from\":\"claude-sonnet-*\",\"to\":\"claude-sonnet-4-5\"},{\"from\":\"claude-opus-*\",\"to\":\"*\"}]";
    private Gateway gw;
    private FakeUpstream a;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        a = FakeUpstream.start();
        gw.account("a", a, MAPS, null);
    }

    @AfterEach
    void stop() {
        gw.close();
        a.close();
    }

    private HttpResponse<String> get(String path, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gw.base() + path)).GET();
        if (headers.length > 0) {
            b.headers(headers);
        }
        return gw.send(b.build());
    }

    private HttpResponse<String> openAi(String path) {
        return get(path, "Authorization", "Bearer " + gw.key());
    }

    private HttpResponse<String> anthropic(String path) {
        return get(path, "x-api-key", gw.key(), "anthropic-version", "2023-06-01");
    }

    @Test
    void anOpenAiCallerGetsTheOpenAiListOfConcreteIds() {
        HttpResponse<String> r = openAi("/v1/models");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode list = Gateway.read(r.body());
        assertEquals("list", list.path("object").asText());
        assertEquals(List.of("claude-sonnet-4-5", "gpt-5.6-sol"), list.path("data").findValuesAsText("id"),
                "patterns are never listed; claude-sonnet-*'s own target is");
        JsonNode first = list.path("data").get(0);
        assertEquals("model", first.path("object").asText());
        assertTrue(first.path("created").isNumber());
        assertEquals("detour", first.path("owned_by").asText());
        assertFalse(first.has("type"));
    }

    @Test
    void anAnthropicCallerGetsTheAnthropicList() {
        HttpResponse<String> r = anthropic("/v1/models");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode list = Gateway.read(r.body());
        assertEquals(List.of("claude-sonnet-4-5", "gpt-5.6-sol"), list.path("data").findValuesAsText("id"));
        JsonNode first = list.path("data").get(0);
        assertEquals("model", first.path("type").asText());
        assertEquals("claude-sonnet-4-5", first.path("display_name").asText());
        assertEquals("1970-01-01T00:00:00Z", first.path("created_at").asText());
        assertFalse(list.path("has_more").asBoolean(true));
        assertEquals("claude-sonnet-4-5", list.path("first_id").asText());
        assertEquals("gpt-5.6-sol", list.path("last_id").asText());
        assertFalse(list.has("object"));

        HttpResponse<String> versionOnly = get("/v1/models", "Authorization", "Bearer " + gw.key(),
                "anthropic-version", "2023-06-01");
        assertEquals("model", Gateway.read(versionOnly.body()).path("data").get(0).path("type").asText(),
                "anthropic-version alone marks an Anthropic caller");
    }

    @Test
    void oneModelIsServedInEachShapeIncludingADatedIdOnlyAPatternTakes() {
        JsonNode o = Gateway.read(openAi("/v1/models/claude-sonnet-4-5-20250929").body());
        assertEquals("claude-sonnet-4-5-20250929", o.path("id").asText());
        assertEquals("model", o.path("object").asText());

        HttpResponse<String> r = anthropic("/v1/models/claude-opus-4-1-20250805");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode m = Gateway.read(r.body());
        assertEquals("model", m.path("type").asText());
        assertEquals("claude-opus-4-1-20250805", m.path("id").asText());
        assertEquals(0, a.requestCount(), "the models endpoints call no upstream");
    }

    @Test
    void aModelTheKeyCannotUseIs404InTheCallersEnvelope() {
        HttpResponse<String> o = openAi("/v1/models/claude-haiku-4-5");
        assertEquals(404, o.statusCode(), o.body());
        JsonNode oe = Gateway.read(o.body()).path("error");
        assertEquals("invalid_request_error", oe.path("type").asText());
        assertEquals("model_not_found", oe.path("code").asText()); // as OpenAI answers an unknown model id
        assertEquals("route_pool.model_unmatched", oe.path("detour_code").asText());
        assertTrue(oe.path("message").asText().contains(o.headers().firstValue("x-detour-request-id").orElseThrow()));

        HttpResponse<String> an = anthropic("/v1/models/claude-haiku-4-5");
        assertEquals(404, an.statusCode(), an.body());
        JsonNode ae = Gateway.read(an.body());
        assertEquals("error", ae.path("type").asText());
        assertEquals("not_found_error", ae.path("error").path("type").asText());

        String narrow = gw.admin("POST", "/keys", "{\"name\":\"narrow\",\"allowed_models\":[\"gpt-5.6-sol\"]}")
                .path("key").asText();
        HttpResponse<String> refused = get("/v1/models/claude-sonnet-4-5", "Authorization", "Bearer " + narrow);
        assertEquals(404, refused.statusCode(), refused.body());
        assertEquals("key.model_not_allowed", Gateway.read(refused.body()).path("error").path("code").asText());
        HttpResponse<String> narrowList = get("/v1/models", "Authorization", "Bearer " + narrow);
        assertEquals(List.of("gpt-5.6-sol"), Gateway.read(narrowList.body()).path("data").findValuesAsText("id"));
    }

    @Test
    void aWildcardMappingServesADatedModelIdUnderItsTarget() {
        HttpResponse<String> r = gw.chat("claude-sonnet-4-5-20250929");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("claude-sonnet-4-5", a.lastRequest().model(), "claude-sonnet-* → claude-sonnet-4-5");

        assertEquals(200, gw.chat("claude-opus-4-1-20250805").statusCode());
        assertEquals("claude-opus-4-1-20250805", a.lastRequest().model(), "to * sends the requested name");

        HttpResponse<String> unmatched = gw.chat("claude-haiku-4-5");
        assertEquals("route_pool.model_unmatched",
                Gateway.read(unmatched.body()).path("error").path("detour_code").asText());
        assertEquals(2, a.requestCount());
    }

    @Test
    void theAdminApiRefusesAMalformedPatternWithAStableCodeAndCreatesNothing() {
        int before = gw.admin("GET", "/accounts", null).path("items").size();
        JsonNode refused = gw.admin("POST", "/accounts", "{\"name\":\"bad\",\"group\":\"default\",\"platform\":"
                + "\"openai-compatible\",\"base_url\":\"" + a.url() + "\",\"api_key\":\"sk-test-bad-secret\","
                + "\"model_mappings\":[{\"from\":\"claude-*-sonnet\",\"to\":\"x\"}]}");
        assertEquals("validation.model_mapping_wildcard", refused.path("error").path("code").asText(),
                refused.toString());
        assertEquals(before, gw.admin("GET", "/accounts", null).path("items").size());
    }
}
