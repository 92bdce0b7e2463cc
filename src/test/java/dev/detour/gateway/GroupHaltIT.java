package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** S-9 end to end: each trigger halts an opted-in group; 503 route_pool.halted with Retry-After; a success clears. */
class GroupHaltIT {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    private static final String NO_RETRY = "{\"failure_policy\":{\"retry_count\":0}}";
    private Gateway gw;
    private FakeUpstream a;
    private FakeUpstream b;
    private FakeUpstream c;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        a = FakeUpstream.start();
        b = FakeUpstream.start();
        c = FakeUpstream.start();
        gw.enableGroupHalt();
    }

    @AfterEach
    void stop() {
        gw.close();
        a.close();
        b.close();
        c.close();
    }

    private JsonNode group() {
        return gw.admin("GET", "/groups", null).path("items").get(0);
    }

    @Test
    void threeAccountsAllRateLimitedHaltTheGroupThirtySecondsUntilASuccessClearsIt() {
        for (FakeUpstream u : new FakeUpstream[] {a, b, c}) {
            gw.account("acct-" + u.port(), u, MAPS, NO_RETRY);
            u.enqueue(Reply.openAiError(429, "rate limit reached", "rate_limit_exceeded"));
        }
        assertEquals(429, gw.chat("gpt-5.6-sol").statusCode()); // P-8' (revised from 502): every attempt a 429
        assertEquals(3, a.requestCount() + b.requestCount() + c.requestCount());
        assertEquals(30, group().path("halted_remaining_s").asInt());
        assertEquals("rate_limit", group().path("halt_reason").asText());

        HttpResponse<String> halted = gw.chat("gpt-5.6-sol");
        assertEquals(503, halted.statusCode());
        assertTrue(halted.body().contains("route_pool.halted"), halted.body());
        assertEquals("30", halted.headers().firstValue("retry-after").orElseThrow());
        assertEquals(3, a.requestCount() + b.requestCount() + c.requestCount(), "no upstream call while halted");

        gw.clock.advance(Duration.ofSeconds(31));
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        assertEquals(0, group().path("halted_remaining_s").asInt());
        assertEquals("0", Db.string("SELECT halt_streak FROM groups_"));
        assertEquals(null, Db.string("SELECT halted_until FROM groups_"), "a success clears the halt");
    }

    @Test
    void billingHaltsSixtySecondsDoublingAndASuccessResetsTheStreak() {
        // error_status_enabled off: the 402 keeps the account ok (F-5), so only the halt stops traffic
        gw.account("a", a, MAPS, "{\"failure_policy\":{\"retry_count\":0,\"error_status_enabled\":false}}");
        a.enqueue(Reply.openAiError(402, "payment required", "billing_error"));
        assertEquals(502, gw.chat("gpt-5.6-sol").statusCode());
        assertEquals(60, group().path("halted_remaining_s").asInt());
        assertEquals("billing", group().path("halt_reason").asText());
        HttpResponse<String> halted = gw.chat("gpt-5.6-sol");
        assertEquals(503, halted.statusCode());
        assertEquals("60", halted.headers().firstValue("retry-after").orElseThrow());

        gw.clock.advance(Duration.ofSeconds(61));
        a.enqueue(Reply.openAiError(402, "payment required", "billing_error"));
        gw.chat("gpt-5.6-sol");
        assertEquals(120, group().path("halted_remaining_s").asInt(), "doubled");
        assertEquals("2", Db.string("SELECT halt_streak FROM groups_"));

        gw.clock.advance(Duration.ofSeconds(121));
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        gw.settled(); // D-1: the halt's clearing is written by the state writer, just after the answer
        assertEquals("0", Db.string("SELECT halt_streak FROM groups_"), "a success resets the doubling");
    }

    @Test
    void anUnreachableUpstreamHaltsTheGroupSixtySeconds() {
        gw.account("a", a, MAPS, NO_RETRY);
        a.close(); // connection refused
        assertEquals(503, gw.chat("gpt-5.6-sol").statusCode()); // P-8' (revised from 502): transport only
        assertEquals(60, group().path("halted_remaining_s").asInt());
        assertEquals("unreachable", group().path("halt_reason").asText());
        assertEquals(503, gw.chat("gpt-5.6-sol").statusCode());
    }

    @Test
    void aGroupWithHaltsOffIsNeverHalted() {
        long group = group().path("id").asLong();
        gw.admin("PUT", "/groups/" + group, "{\"name\":\"default\",\"halt_policy\":\"off\"}");
        gw.account("a", a, MAPS, NO_RETRY);
        a.enqueue(Reply.openAiError(429, "rate limit reached", "rate_limit_exceeded"));
        assertEquals(429, gw.chat("gpt-5.6-sol").statusCode()); // P-8' (revised from 502)
        assertEquals(0, group().path("halted_remaining_s").asInt());
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
    }
}
