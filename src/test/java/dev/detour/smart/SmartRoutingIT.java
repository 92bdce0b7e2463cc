package dev.detour.smart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.adapter.db.SmartMapper;
import dev.detour.core.selection.RouteStats;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** S-3 price/stability/latency inputs, event cost, S-10 blocks, P-10 bindings and E-2 JSON, end to end. */
class SmartRoutingIT {
    private Gateway gw;
    private SmartFixture fx;
    private FakeUpstream a;
    private FakeUpstream b;
    private FakeUpstream c;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        fx = new SmartFixture(gw);
        a = FakeUpstream.start();
        b = FakeUpstream.start();
        c = FakeUpstream.start();
    }

    @AfterEach
    void stop() {
        gw.close();
        a.close();
        b.close();
        c.close();
    }

    @Test
    void priceKeyAndPriorityKeyTakeDifferentRoutesUnknownPriceRanksLastAndTheEventsSayWhy() {
        fx.group("cheap", 500_000);
        fx.group("cheapest", 200_000);
        long idA = fx.account("a", a, "default", 0, "m", "up-a");
        long idB = fx.account("b", b, "cheap", 1, "m", "up-b");
        long idC = fx.account("c", c, "cheapest", 2, "m", "up-c");
        fx.prices("[{\"model\":\"up-a\",\"input_micros_per_m\":1000000,\"output_micros_per_m\":1000000},"
                + "{\"model\":\"up-b\",\"input_micros_per_m\":1000000,\"output_micros_per_m\":1000000}]");
        String priceKey = fx.key("{\"name\":\"A\",\"strategy\":\"price\"}");
        String priorityKey = fx.key("{\"name\":\"B\"}");

        JsonNode preview = SmartFixture.json(fx.post(priceKey, "/v1/detour/route-preview",
                "{\"model\":\"m\",\"endpoint\":\"chat_completions\"}"));
        List<Long> order = new ArrayList<>();
        preview.path("candidates").forEach(x -> order.add(x.path("account_id").asLong()));
        assertEquals(List.of(idB, idA, idC), order, "known prices by ratio × price, the unknown price last: " + preview);
        assertEquals("selected_lowest_price", preview.path("reason_code").asText());
        assertEquals(0, a.requestCount() + b.requestCount() + c.requestCount(), "a preview calls no upstream");

        HttpResponse<String> viaPrice = fx.chat(priceKey, "m");
        HttpResponse<String> viaPriority = fx.chat(priorityKey, "m");
        assertEquals(1, b.requestCount());
        assertEquals(1, a.requestCount());
        List<JsonNode> events = gw.events(2);
        assertEquals(SmartFixture.requestId(viaPrice), events.get(0).path("id").asText());
        assertEquals(idB, events.get(0).path("account_id").asLong());
        assertEquals("selected_lowest_price", events.get(0).path("reason_code").asText());
        assertEquals(SmartFixture.requestId(viaPriority), events.get(1).path("id").asText());
        assertEquals(idA, events.get(1).path("account_id").asLong());
        assertEquals("selected_priority", events.get(1).path("reason_code").asText());
    }

    @Test
    void afterTheCheapRouteFailsThePriceKeyMovesUpATierAndReturnsWhenItRecovers() {
        fx.group("cheap", 500_000);
        long idA = fx.account("a", a, "default", 0, "m", "up-a");
        long idB = fx.account("b", b, "cheap", 1, "m", "up-b");
        fx.prices("[{\"model\":\"up-a\",\"input_micros_per_m\":1000000,\"output_micros_per_m\":1000000},"
                + "{\"model\":\"up-b\",\"input_micros_per_m\":1000000,\"output_micros_per_m\":1000000}]");
        String priceKey = fx.key("{\"name\":\"A\",\"strategy\":\"price\"}");
        b.enqueue(Reply.openAiError(503, "overloaded", "server_error"));
        assertEquals(200, fx.chat(priceKey, "m").statusCode());
        assertEquals(200, fx.chat(priceKey, "m").statusCode());
        assertEquals(1, b.requestCount(), "the cheap route failed once and is cooling");
        assertEquals(2, a.requestCount(), "the key moved up a price tier");
        JsonNode preview = SmartFixture.json(fx.post(priceKey, "/v1/detour/route-preview", "{\"model\":\"m\"}"));
        JsonNode cooling = preview.path("rejections").get(0);
        assertEquals(idB, cooling.path("account_id").asLong());
        assertEquals("rejected_cooling", cooling.path("reason").asText());
        assertEquals(10, cooling.path("retry_in_seconds").asLong(), "the key holder sees the time until retry");
        assertEquals("unavailable|unavailable retry in 10 s", fx.myRoute(priceKey, "m", idB), "/my says so too");
        assertEquals("available|available", fx.myRoute(priceKey, "m", idA));
        JsonNode moved = gw.events(2).get(1);
        assertEquals(idA, moved.path("account_id").asLong());
        assertTrue(moved.path("rejections").toString().contains("{\"account_id\":" + idB
                + ",\"reason\":\"rejected_cooling\""), "the event says why the cheap route was passed over: " + moved);

        gw.clock.advance(Duration.ofSeconds(11));
        assertEquals("available|available", fx.myRoute(priceKey, "m", idB), "recovered on /my");
        fx.chat(priceKey, "m");
        assertEquals(2, b.requestCount(), "recovered: back on the cheap route");
        JsonNode back = gw.events(3).get(2);
        assertEquals(idB, back.path("account_id").asLong());
        assertEquals("selected_lowest_price", back.path("reason_code").asText());
        assertEquals(idA, gw.events(3).get(1).path("account_id").asLong());
    }

    @Test
    void theEventCostIsTokensTimesPriceTimesGroupRatio() {
        fx.group("half", 500_000);
        fx.account("a", a, "half", 0, "m", "up-a");
        fx.prices("[{\"model\":\"up-a\",\"input_micros_per_m\":2000000,\"output_micros_per_m\":6000000}]");
        assertEquals(200, fx.chat(gw.key(), "m").statusCode());
        JsonNode event = gw.events(1).get(0);
        long in = event.path("usage").path("input_tokens").asLong();
        long out = event.path("usage").path("output_tokens").asLong();
        assertTrue(in > 0 && out > 0, event.toString());
        long expectedMicros = (in * 2_000_000 + out * 6_000_000) / 1_000_000 / 2;
        assertEquals(expectedMicros, Math.round(event.path("cost").asDouble() * 1_000_000));
    }

    @Test
    void stabilityAndLatencyAreFedByRealTrafficAndStabilityAvoidsTheRouteThatFailed() {
        long idA = fx.account("a", a, "default", 0, "m", "up-a");
        long idB = fx.account("b", b, "default", 1, "m", "up-b");
        a.enqueue(Reply.openAiError(500, "boom", "server_error"));
        HttpResponse<String> first = fx.chat(gw.key(), "m");
        assertEquals(200, first.statusCode(), "failed over to b");
        for (int i = 0; i < 20; i++) {
            assertEquals(200, fx.chat(gw.key(), "m").statusCode());
        }
        RouteStats statsB = gw.app.smartKeys().stats().of(idB, "up-b");
        assertEquals(21, statsB.successes());
        assertEquals(21, statsB.ttftSamples());
        assertNotNull(statsB.p95TtftMs());
        RouteStats statsA = gw.app.smartKeys().stats().of(idA, "up-a");
        assertEquals(1, statsA.failures());
        assertEquals(0, statsA.successes());

        gw.clock.advance(Duration.ofSeconds(11)); // a's cooldown is over: eligible again
        String stable = fx.key("{\"name\":\"stable\",\"strategy\":\"stability\"}");
        fx.chat(stable, "m");
        assertEquals(22, b.requestCount(), "stability prefers the route with the better real success rate");
        String priority = fx.key("{\"name\":\"prio\"}");
        fx.chat(priority, "m");
        assertEquals(2, a.requestCount(), "priority still goes to a");
        JsonNode stableEvent = gw.events(23).get(21);
        assertEquals("selected_most_stable", stableEvent.path("reason_code").asText());
    }

    /** Every request of a latency key; returns the account that served it. */
    private long latencyRequest(String key) {
        HttpResponse<String> r = fx.chat(key, "m");
        assertEquals(200, r.statusCode());
        JsonNode event = gw.events(++latencyRequests).get(latencyRequests - 1);
        assertEquals(SmartFixture.requestId(r), event.path("id").asText());
        return event.path("account_id").asLong();
    }

    private int latencyRequests;

    @Test
    void aLatencyKeyPicksTheFastestRouteOnceItHasEnoughSamplesAndExploresANewRouteInsteadOfStarvingIt() {
        // the fakes' own first-byte delay makes the TTFTs differ; the test thread never sleeps
        Reply slowAnswer = Reply.chatCompletion().frameDelay(Duration.ofMillis(300));
        b.handler(request -> slowAnswer);
        long idB = fx.account("b", b, "default", 0, "m", "up-b"); // first by priority, but slow
        long idA = fx.account("a", a, "default", 1, "m", "up-a");
        gw.app.load().useSettings(gw.app.load().settings().withLatency(3, 1000)); // 3 samples; always explore
        String key = fx.key("{\"name\":\"quick\",\"strategy\":\"latency\"}");

        List<Long> served = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            served.add(latencyRequest(key));
        }
        assertEquals(List.of(idB, idA, idB, idA, idB, idA), served, "unknown routes share the first samples");
        for (int i = 0; i < 6; i++) {
            assertEquals(idA, latencyRequest(key), "both known: the fastest p95 TTFT wins");
        }
        assertEquals(3, b.requestCount());
        assertTrue(gw.app.smartKeys().stats().of(idB, "up-b").p95TtftMs() >= 300);
        assertEquals("selected_fastest", gw.events(12).get(11).path("reason_code").asText());

        c.handler(request -> slowAnswer);
        long idC = fx.account("c", c, "default", 2, "m", "up-c");
        for (int i = 0; i < 3; i++) {
            assertEquals(idC, latencyRequest(key), "a new route is explored until it has its samples");
        }
        assertEquals(idA, latencyRequest(key), "then it is ranked by what it showed");
        JsonNode preview = SmartFixture.json(fx.post(key, "/v1/detour/route-preview", "{\"model\":\"m\"}"));
        assertEquals(idA, preview.path("candidates").get(0).path("account_id").asLong(), preview.toString());
        assertEquals(3, c.requestCount());
    }

    @Test
    void thePreviewAndTheRoutePageJudgeTheSiteDefaultCeilingAsLiveTrafficDoes() {
        fx.group("pricey", 2_000_000);
        long cheap = fx.account("a", a, "default", 1, "m", "up-a");
        long pricey = fx.account("b", b, "pricey", 0, "m", "up-b");
        gw.admin("PUT", "/settings", "{\"default_max_ratio_ppm\":1500000}");
        String key = fx.key("{\"name\":\"inherits\"}");

        JsonNode preview = SmartFixture.json(fx.post(key, "/v1/detour/route-preview", "{\"model\":\"m\"}"));
        assertEquals(cheap, preview.path("candidates").get(0).path("account_id").asLong(), preview.toString());
        assertEquals("rejected_ratio_ceiling", preview.path("rejections").get(0).path("reason").asText());
        assertTrue(fx.myRoute(key, "m", pricey).startsWith("over_ceiling|"));
        assertEquals(200, fx.chat(key, "m").statusCode());
        assertEquals(0, b.requestCount(), "live traffic agrees with the preview");
    }

    @Test
    void blockRulesFilterEachScopeWithAdminBlockUntilExpiryOrRemoval() {
        long g2 = fx.group("g2", 1_000_000);
        long idA = fx.account("a", a, "g2", 0, "m", "up-a");
        long idB = fx.account("b", b, "default", 1, "m", "up-b");
        String[][] rules = {{"account", Long.toString(idA)}, {"model", "up-a"}, {"group", Long.toString(g2)}};
        int expectedB = 0;
        for (String[] rule : rules) {
            JsonNode block = gw.admin("POST", "/blocks", "{\"scope\":\"" + rule[0] + "\",\"value\":\"" + rule[1]
                    + "\",\"reason\":\"maintenance\"}");
            assertFalse(block.path("operator").asText().isEmpty(), "the operator is recorded: " + block);
            fx.chat(gw.key(), "m");
            assertEquals(++expectedB, b.requestCount(), "blocked by " + rule[0]);
            gw.admin("DELETE", "/blocks/" + block.path("id").asLong(), null);
        }
        List<JsonNode> events = gw.events(3);
        for (JsonNode event : events) {
            assertTrue(event.path("rejections").toString().contains("{\"account_id\":" + idA
                    + ",\"reason\":\"rejected_admin_block\"}"), event.toString());
        }
        JsonNode family = gw.admin("POST", "/blocks", "{\"scope\":\"endpoint_family\",\"value\":\"chat_completions\"}");
        HttpResponse<String> none = fx.chat(gw.key(), "m");
        assertEquals(502, none.statusCode());
        assertEquals("route_pool.no_eligible_route", SmartFixture.errorCode(none));
        assertTrue(SmartFixture.json(none).path("error").path("message").asText().contains("rejected_admin_block"));
        gw.admin("DELETE", "/blocks/" + family.path("id").asLong(), null);

        gw.admin("POST", "/blocks", "{\"scope\":\"account\",\"value\":\"" + idA
                + "\",\"expires_at\":\"2026-11-29T10:01:00Z\"}");
        fx.chat(gw.key(), "m");
        assertEquals(0, a.requestCount(), "blocked until the expiry");
        gw.clock.advance(Duration.ofSeconds(61));
        fx.chat(gw.key(), "m");
        assertEquals(1, a.requestCount(), "an expired rule no longer applies");
        assertEquals("validation.block_rule.scope", gw.admin("POST", "/blocks",
                "{\"scope\":\"planet\",\"value\":\"x\"}").path("error").path("code").asText());
    }

    @Test
    void aPreviousResponseIdGoesToTheCreatingAccountEvenWhenAnotherIsCheaperAndIsRefusedWhenItIsGone() {
        fx.group("cheap", 100_000);
        long idA = fx.account("a", a, "default", 0, "m", "up-a");
        fx.account("b", b, "cheap", 1, "m", "up-b");
        a.enqueue(Reply.json(200, "{\"id\":\"resp_abc\",\"object\":\"response\",\"status\":\"completed\","
                + "\"output\":[{\"type\":\"message\",\"content\":[{\"type\":\"output_text\",\"text\":\"hi\"}]}],"
                + "\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}"));
        assertEquals(200, fx.post(gw.key(), "/v1/responses", "{\"model\":\"m\",\"input\":\"hi\"}").statusCode());
        Gateway.await(() -> gw.app.database().read(s -> s.getMapper(SmartMapper.class)
                .selectResponseBinding("resp_abc", gw.clock.instant())) != null, "binding written");
        Long boundTo = gw.app.database().read(s -> s.getMapper(SmartMapper.class)
                .selectResponseBinding("resp_abc", gw.clock.instant()));
        assertEquals(Long.valueOf(idA), boundTo);

        String priceKey = fx.key("{\"name\":\"thrifty\",\"strategy\":\"price\"}");
        a.enqueue(Reply.json(200, "{\"id\":\"resp_def\",\"object\":\"response\",\"status\":\"completed\"}"));
        HttpResponse<String> bound = fx.post(priceKey, "/v1/responses",
                "{\"model\":\"m\",\"input\":\"more\",\"previous_response_id\":\"resp_abc\"}");
        assertEquals(200, bound.statusCode());
        assertEquals(2, a.requestCount());
        assertEquals(0, b.requestCount(), "the cheaper route is not used for a state-bound request");

        gw.admin("PUT", "/accounts/" + idA, "{\"enabled\":false}");
        HttpResponse<String> refused = fx.post(priceKey, "/v1/responses",
                "{\"model\":\"m\",\"input\":\"again\",\"previous_response_id\":\"resp_abc\"}");
        assertEquals(502, refused.statusCode());
        assertEquals("route_pool.state_bound_unavailable", SmartFixture.errorCode(refused));
        assertEquals(0, b.requestCount(), "no cross-account failover");
    }

    @Test
    void aStreamedResponseIdIsBoundFromItsCreatedEvent() {
        long idA = fx.account("a", a, "default", 0, "m", "up-a");
        a.enqueue(Reply.sse(List.of(
                "{\"type\":\"response.created\",\"response\":{\"id\":\"resp_stream1\",\"object\":\"response\"}}",
                "{\"type\":\"response.completed\",\"response\":{\"id\":\"resp_stream1\",\"usage\":"
                        + "{\"input_tokens\":3,\"output_tokens\":2}}}")));
        HttpResponse<String> r = fx.post(gw.key(), "/v1/responses", "{\"model\":\"m\",\"input\":\"hi\",\"stream\":true}");
        assertEquals(200, r.statusCode());
        assertTrue(r.body().contains("resp_stream1"));
        assertEquals(Long.valueOf(idA), gw.app.smartKeys().boundAccount("resp_stream1", gw.clock.instant()));
    }

    @Test
    void aStoreRequestIsNeverReplayedOnASecondAccountOnceDispatched() {
        fx.account("a", a, "default", 0, "m", "up-a");
        fx.account("b", b, "default", 1, "m", "up-b");
        a.enqueue(Reply.openAiError(500, "boom", "server_error"));
        HttpResponse<String> r = fx.post(gw.key(), "/v1/responses", "{\"model\":\"m\",\"input\":\"hi\",\"store\":true}");
        assertEquals(503, r.statusCode()); // P-8' (revised from 502): its one attempt was a 5xx
        assertEquals(0, b.requestCount());
        assertEquals("retry_stopped_after_commit", gw.events(1).get(0).path("reason_code").asText());
    }

    @Test
    void explainShowsTheRouteToItsOwnKeyOnlyAndNeverAUrl() {
        fx.group("cheap", 500_000);
        long idA = fx.account("a", a, "default", 0, "m", "up-a");
        long idB = fx.account("b", b, "cheap", 1, "m", "up-b");
        fx.prices("[{\"model\":\"up-a\",\"input_micros_per_m\":1000000,\"output_micros_per_m\":1000000},"
                + "{\"model\":\"up-b\",\"input_micros_per_m\":1000000,\"output_micros_per_m\":1000000}]");
        b.enqueue(Reply.openAiError(500, "boom", "server_error"));
        String owner = fx.key("{\"name\":\"owner\",\"strategy\":\"price\"}");
        String other = fx.key("{\"name\":\"other\"}");
        HttpResponse<String> r = fx.chat(owner, "m");
        String id = SmartFixture.requestId(r);
        gw.events(1);
        HttpResponse<String> explained = fx.get(owner, "/v1/detour/explain/" + id);
        assertEquals(200, explained.statusCode());
        JsonNode e = SmartFixture.json(explained);
        assertEquals(idA, e.path("route").path("account_id").asLong());
        assertEquals("default", e.path("route").path("group").asText());
        assertEquals("switched_after_failure", e.path("reason_code").asText());
        assertEquals(idB, e.path("attempts").get(0).path("account_id").asLong());
        assertEquals("switch", e.path("attempts").get(0).path("action").asText());
        assertFalse(explained.body().contains("127.0.0.1") || explained.body().contains("sk-test"), explained.body());

        HttpResponse<String> foreign = fx.get(other, "/v1/detour/explain/" + id);
        assertEquals(404, foreign.statusCode());
        assertEquals(404, fx.get(owner, "/v1/detour/explain/nope").statusCode());
        assertEquals(401, fx.get("dtr-wrong", "/v1/detour/explain/" + id).statusCode());
        JsonNode preview = SmartFixture.json(fx.post(owner, "/v1/detour/route-preview", "{\"model\":\"m\"}"));
        assertEquals(idA, preview.path("candidates").get(0).path("account_id").asLong(), preview.toString());
        assertEquals("rejected_cooling", preview.path("rejections").get(0).path("reason").asText());
        assertTrue(preview.path("rejections").get(0).path("retry_in_seconds").asLong() > 0);
        assertNull(preview.get("error_code").textValue());
    }
}
