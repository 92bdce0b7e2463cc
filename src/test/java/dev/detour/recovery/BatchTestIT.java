package dev.detour.recovery;

import static dev.detour.recovery.RecoveryFixture.MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.Bodies;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import dev.detour.testkit.Gateway;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** W-3 batch model test through the admin API, on one fake upstream that behaves per account key. */
class BatchTestIT {
    private static final List<String> BEHAVIOURS = List.of("ok", "unauthorized", "limited", "broken", "slow", "swapped");
    private static final int PROBE_CONCURRENCY = 4;
    private static final Duration SLOW = Duration.ofMillis(400);
    private Gateway gw;
    private FakeUpstream upstream;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        gw.app.recovery().stopLoop();
        upstream = FakeUpstream.start().handler(BatchTestIT::behave);
        gw.admin("PUT", "/settings", "{\"probe_concurrency\":" + PROBE_CONCURRENCY + ",\"probe_budget_per_minute\":600}");
    }

    @AfterEach
    void stop() {
        gw.close();
        upstream.close();
    }

    /** The account's key names its behaviour: sk-test-&lt;behaviour&gt;-&lt;n&gt;-secret. Every answer takes a moment. */
    private static Reply behave(RecordedRequest request) {
        String key = request.header("authorization");
        String behaviour = BEHAVIOURS.stream().filter(b -> key.contains("-" + b + "-")).findFirst().orElseThrow();
        Reply reply = switch (behaviour) {
            case "ok", "slow" -> Reply.json(200, Bodies.chatCompletion(request.model(), "p"));
            case "unauthorized" -> Reply.openAiError(401, "Incorrect API key provided", "invalid_api_key");
            case "limited" -> Reply.openAiError(429, "Rate limit reached", "rate_limit_exceeded");
            case "broken" -> Reply.openAiError(500, "upstream exploded", "server_error");
            default -> Reply.json(200, Bodies.chatCompletion("some-cheaper-model", "p"));
        };
        return reply.latency(behaviour.equals("slow") ? SLOW : Duration.ofMillis(50));
    }

    private JsonNode finished(String batch) {
        JsonNode[] last = new JsonNode[1];
        Gateway.await(() -> (last[0] = gw.admin("GET", "/accounts/test/" + batch, null)).path("done").asBoolean(),
                "batch " + batch + " done");
        return last[0];
    }

    @Test
    void aBatchOverFiftyAccountsReportsEachBehaviourHoldsTheProbeBudgetAndRecoversExactlyThoseThatPassed() {
        Map<Long, String> behaviourOf = new LinkedHashMap<>();
        for (int i = 0; i < 50; i++) {
            String behaviour = BEHAVIOURS.get(i % BEHAVIOURS.size());
            long id = gw.account(behaviour + "-" + i, upstream, MAPS, null);
            behaviourOf.put(id, behaviour);
            // a cooling sibling model: only a full reactivation ("recover those that passed") clears it
            RecoveryFixture.modelRow(gw, id, "upstream-glm", "ok", true);
        }
        long pausedOk = gw.account("ok-paused", upstream, MAPS, null);
        RecoveryFixture.modelRow(gw, pausedOk, "upstream-glm", "ok", true);
        RecoveryFixture.setStatus(pausedOk, "paused");
        long glmOnly = gw.account("ok-glm-only", upstream, "[{\"from\":\"glm-5.3\",\"to\":\"upstream-glm\"}]", null);
        gw.app.snapshot().reload();

        JsonNode started = gw.admin("POST", "/accounts/test", "{\"model\":\"gpt-5.6-sol\",\"account_ids\":null,"
                + "\"group\":null}");
        String batch = started.path("batch").asText();
        assertEquals(16, batch.length(), started.toString());
        JsonNode result = finished(batch);

        assertTrue(upstream.concurrency().highWater() <= PROBE_CONCURRENCY,
                "the probe budget held: " + upstream.concurrency().highWater());
        assertTrue(upstream.concurrency().highWater() > 1, "the tests ran side by side, not one by one");
        assertEquals(51, upstream.requestCount(), "one test per account that serves the model");
        assertEquals(52, result.path("results").size());
        List<Long> passed = new ArrayList<>();
        for (JsonNode line : result.path("results")) {
            long id = line.path("account_id").asLong();
            if (id == glmOnly) {
                assertEquals("not_served", line.path("status").asText());
                continue;
            }
            String behaviour = id == pausedOk ? "ok" : behaviourOf.get(id);
            assertLineMatches(behaviour, line);
            if (line.path("status").asText().equals("passed")) {
                passed.add(id);
            }
        }
        JsonNode counts = result.path("counts");
        assertEquals(9 + 8 + 1, counts.path("passed").asInt(), counts.toString());
        assertEquals(9 + 8 + 8, counts.path("failed").asInt());
        assertEquals(8, counts.path("wrong_model").asInt());

        JsonNode recovered = gw.admin("POST", "/accounts/test/" + batch + "/recover-passed", "{}").path("recovered");
        TreeSet<Long> expected = new TreeSet<>(passed);
        expected.remove(pausedOk); // a paused account stays paused: a batch never undoes a person's pause
        TreeSet<Long> got = new TreeSet<>();
        recovered.forEach(n -> got.add(n.asLong()));
        assertEquals(expected, got);
        for (long id : behaviourOf.keySet()) {
            boolean cleared = RecoveryFixture.modelRows(id).stream().noneMatch(r -> r.startsWith("upstream-glm"));
            assertEquals(expected.contains(id), cleared, "account " + id + " (" + behaviourOf.get(id) + ")");
        }
        assertEquals("paused", RecoveryFixture.status(pausedOk));
        String audit = gw.admin("GET", "/audit?limit=5", null).toString();
        assertTrue(audit.contains("account.batch_test") && audit.contains("recovery.recover_passed"), audit);
    }

    private static void assertLineMatches(String behaviour, JsonNode line) {
        String what = behaviour + ": " + line;
        switch (behaviour) {
            case "ok", "slow" -> {
                assertEquals("passed", line.path("status").asText(), what);
                assertEquals(200, line.path("http_status").asInt(), what);
                assertEquals("upstream-sol", line.path("served_model").asText(), what);
                assertTrue(line.path("failure_kind").isNull(), what);
                if (behaviour.equals("slow")) {
                    assertTrue(line.path("ttft_ms").asLong() >= SLOW.toMillis(), what);
                }
            }
            case "swapped" -> {
                assertEquals("wrong_model", line.path("status").asText(), what);
                assertEquals("upstream-sol", line.path("upstream_model").asText(), what);
                assertEquals("some-cheaper-model", line.path("served_model").asText(), what);
            }
            default -> {
                int status = Map.of("unauthorized", 401, "limited", 429, "broken", 500).get(behaviour);
                assertEquals("failed", line.path("status").asText(), what);
                assertEquals(status, line.path("http_status").asInt(), what);
                assertEquals("model_test_status", line.path("failure_kind").asText(), what);
                assertEquals("transient", line.path("failure_class").asText(), what); // F-1: 401/429/5xx
                String words = Map.of("unauthorized", "Incorrect API key provided", "limited", "Rate limit reached",
                        "broken", "upstream exploded").get(behaviour);
                assertTrue(line.path("upstream_body").asText().contains(words), what);
            }
        }
    }

    @Test
    void aBatchCanTestOneGroupOrChosenAccountsAndRefusesWhatItCannotTest() {
        gw.group("other");
        long inDefault = gw.account("ok-default", upstream, MAPS, null);
        long inOther = gw.account("ok-other", upstream, MAPS, "{\"group\":\"other\"}");

        JsonNode group = finished(gw.admin("POST", "/accounts/test", "{\"model\":\"gpt-5.6-sol\",\"group\":\"other\"}")
                .path("batch").asText());
        assertEquals(1, group.path("results").size());
        assertEquals(inOther, group.path("results").get(0).path("account_id").asLong());
        assertEquals("other", group.path("results").get(0).path("group").asText());

        JsonNode chosen = finished(gw.admin("POST", "/accounts/test", "{\"model\":\"gpt-5.6-sol\",\"account_ids\":["
                + inDefault + "]}").path("batch").asText());
        assertEquals(inDefault, chosen.path("results").get(0).path("account_id").asLong());
        assertEquals("passed", chosen.path("results").get(0).path("status").asText());

        int before = upstream.requestCount();
        assertEquals("validation.batch_test.group", gw.admin("POST", "/accounts/test",
                "{\"model\":\"gpt-5.6-sol\",\"group\":\"nope\"}").path("error").path("code").asText());
        assertEquals("validation.batch_test.model", gw.admin("POST", "/accounts/test",
                "{\"group\":\"other\"}").path("error").path("code").asText());
        assertEquals("validation.batch_test.account_ids", gw.admin("POST", "/accounts/test",
                "{\"model\":\"gpt-5.6-sol\",\"account_ids\":\"all\"}").path("error").path("code").asText());
        assertEquals("not_found", gw.admin("POST", "/accounts/test",
                "{\"model\":\"gpt-5.6-sol\",\"account_ids\":[999999]}").path("error").path("code").asText());
        assertEquals("not_found", gw.admin("GET", "/accounts/test/0123456789abcdef", null)
                .path("error").path("code").asText());
        assertEquals(before, upstream.requestCount(), "nothing refused reached the upstream");
        assertNull(gw.admin("GET", "/accounts/test/0123456789abcdef", null).get("results"));
    }
}
