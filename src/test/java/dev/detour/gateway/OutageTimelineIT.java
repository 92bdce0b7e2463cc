package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The seed's "full timeline of one outage", replayed against the running gateway with a controlled
 * clock: the primary maps gpt-5.6-sol and glm-5.3, its upstream rate-limits only upstream-sol.
 */
class OutageTimelineIT {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"},"
            + "{\"from\":\"glm-5.3\",\"to\":\"upstream-glm\"}]";
    private static final String PRIMARY = "{\"priority\":0,\"failure_policy\":{\"retry_count\":1,"
            + "\"retry_interval_ms\":0,\"cooldown_enabled\":true,\"cooldown_seconds\":10}}";
    private Gateway gw;
    private FakeUpstream primary;
    private FakeUpstream secondary;
    private long id;
    private volatile boolean solLimited = true;
    private volatile boolean down;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        primary = FakeUpstream.start();
        secondary = FakeUpstream.start();
        id = gw.account("primary", primary, MAPS, PRIMARY);
        gw.account("secondary", secondary, MAPS, "{\"priority\":1}");
        primary.handler(this::primaryAnswer);
    }

    private Reply primaryAnswer(RecordedRequest r) {
        if (down || (solLimited && "upstream-sol".equals(r.model()))) {
            return down ? Reply.openAiError(503, "service unavailable", "server_error")
                    : Reply.openAiError(429, "rate limit reached for upstream-sol", "rate_limit_exceeded");
        }
        return Reply.chatCompletion();
    }

    @AfterEach
    void stop() {
        gw.close();
        primary.close();
        secondary.close();
    }

    @Test
    void minuteByMinuteTheClientNeverSeesAFailure() {
        // T+0: 429 → no same-account retry (C-4', revised from "retry, still 429") → one model-scoped failure; switch
        ok("gpt-5.6-sol");
        assertEquals(1, primary.requestCount());
        JsonNode s = gw.accountState(id);
        assertEquals(1, s.path("transient_failure_count").asInt(), "UI: 1 error");
        assertEquals(0, s.path("cooldown_remaining_s").asInt(), "no account cooldown");
        assertEquals(1, s.path("unavailable_model_count").asInt(), "模型 1 不可用");
        assertEquals(10, model(s, "upstream-sol").path("cooldown_remaining_s").asInt());

        // T+2: glm-5.3 on the primary succeeds; account traces cleared; upstream-sol untouched
        gw.clock.advance(Duration.ofSeconds(2));
        ok("glm-5.3");
        s = gw.accountState(id);
        assertEquals(0, s.path("transient_failure_count").asInt());
        assertEquals(8, model(s, "upstream-sol").path("cooldown_remaining_s").asInt());

        // T+5: the cooling pair is skipped without a call
        gw.clock.advance(Duration.ofSeconds(3));
        int before = primary.requestCount();
        ok("gpt-5.6-sol");
        assertEquals(before, primary.requestCount());

        // T+10: cooldown over, 429 again → failure #2, cools until T+20
        gw.clock.advance(Duration.ofSeconds(5));
        ok("gpt-5.6-sol");
        s = gw.accountState(id);
        assertEquals(2, model(s, "upstream-sol").path("transient_failure_count").asInt());
        assertEquals(10, model(s, "upstream-sol").path("cooldown_remaining_s").asInt());

        // T+20: the upstream recovered → row deleted, badge gone, primary fully back
        gw.clock.advance(Duration.ofSeconds(10));
        solLimited = false;
        ok("gpt-5.6-sol");
        s = gw.accountState(id);
        assertEquals(0, s.path("models").size());
        assertEquals(0, s.path("unavailable_model_count").asInt());
        assertEquals(0, s.path("transient_failure_count").asInt());
        List<JsonNode> events = gw.events(5);
        events.forEach(e -> assertEquals("success", e.path("outcome").asText()));
        assertEquals("selected_priority", events.get(4).path("reason_code").asText());
    }

    @Test
    void aWholesaleOutageEscalatesToAnAccountCooldownAfterEachModelFailedOnce() {
        down = true;
        ok("gpt-5.6-sol");
        assertEquals(0, gw.accountState(id).path("cooldown_remaining_s").asInt(), "one model down: no escalation");
        ok("glm-5.3");
        JsonNode s = gw.accountState(id);
        assertEquals(10, s.path("cooldown_remaining_s").asInt(), "every model failed once: the account backs off");
        int before = primary.requestCount();
        ok("gpt-5.6-sol");
        ok("glm-5.3");
        assertEquals(before, primary.requestCount(), "a broken relay is not re-probed per model");
        assertEquals(1, gw.app.stateRecorder().escalations());
    }

    @Test
    void fiftyParallelFailuresOnTheLastServiceableModelsEscalateExactlyOnce() throws Exception {
        CountDownLatch allArrived = new CountDownLatch(50);
        primary.handler(r -> {
            allArrived.countDown();
            try {
                allArrived.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Reply.openAiError(503, "service unavailable", "server_error");
        });
        gw.admin("PUT", "/accounts/" + id, "{\"failure_policy\":{\"retry_count\":0,\"cooldown_enabled\":true}}");
        List<CompletableFuture<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            String model = i % 2 == 0 ? "gpt-5.6-sol" : "glm-5.3";
            calls.add(CompletableFuture.supplyAsync(() -> gw.chat(model).statusCode()));
        }
        for (CompletableFuture<Integer> call : calls) {
            assertEquals(200, call.get(60, TimeUnit.SECONDS));
        }
        assertEquals(50, primary.requestCount());
        assertEquals(1, gw.app.stateRecorder().escalations());
        JsonNode s = gw.accountState(id);
        assertEquals(10, s.path("cooldown_remaining_s").asInt());
        assertEquals(50, s.path("transient_failure_count").asInt());
        assertEquals(0, gw.app.leases().inFlight(id));
        assertEquals(0, gw.app.leases().total());
        assertEquals(50, gw.events(50).size());
    }

    private void ok(String model) {
        assertEquals(200, gw.chat(model).statusCode(), "the client never sees a failure");
    }

    private static JsonNode model(JsonNode state, String key) {
        for (JsonNode m : state.path("models")) {
            if (m.path("model_key").asText().equals(key)) {
                return m;
            }
        }
        throw new AssertionError("no model row " + key + " in " + state);
    }
}
