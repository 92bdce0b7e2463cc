package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.App;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import dev.detour.testkit.TestApp;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** S-6: bindings in MariaDB with a 30 min rolling TTL, unbound on failure, honoured by a second instance, swept. */
class SessionStickinessIT {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    private static final String NO_RETRY = "{\"failure_policy\":{\"retry_count\":0}}";
    private static final String BODY = "{\"model\":\"gpt-5.6-sol\",\"metadata\":{\"conversation_id\":\"conv-42\"},"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private Gateway gw;
    private FakeUpstream a;
    private FakeUpstream b;
    private long idA;
    private long idB;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        a = FakeUpstream.start();
        b = FakeUpstream.start();
        idA = gw.account("a", a, MAPS, NO_RETRY);
        idB = gw.account("b", b, MAPS, NO_RETRY);
    }

    @AfterEach
    void stop() {
        gw.close();
        a.close();
        b.close();
    }

    private HttpResponse<String> send() {
        return gw.post("/v1/chat/completions", BODY);
    }

    private static Instant bindingExpiry() {
        String value = Db.string("SELECT expires_at FROM session_bindings");
        return value == null ? null : LocalDateTime.parse(value.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
    }

    private static Long boundAccount() {
        String value = Db.string("SELECT account_id FROM session_bindings");
        return value == null ? null : Long.parseLong(value);
    }

    @Test
    void twentyRequestsOfOneConversationLandOnOneAccountAndTheBindingIsStoredAndRenewed() {
        for (int i = 0; i < 20; i++) {
            assertEquals(200, send().statusCode());
            gw.clock.advance(Duration.ofSeconds(1));
        }
        assertEquals(20, a.requestCount() + b.requestCount());
        assertEquals(true, a.requestCount() == 20 || b.requestCount() == 20, "all on one account");
        JsonNode last = gw.events(20).get(19);
        assertEquals("kept_session_affinity", last.path("reason_code").asText());
        gw.app.load().bindings().flush();
        long bound = a.requestCount() == 20 ? idA : idB;
        assertEquals(bound, boundAccount());
        assertEquals(1, Db.strings("SELECT session_hash FROM session_bindings").size());
        Instant firstExpiry = bindingExpiry();
        assertEquals(Instant.parse("2026-11-29T10:30:00Z"), firstExpiry, "30 min after the first request");

        gw.clock.advance(Duration.ofMinutes(5)); // renewal is lazy: at most once a minute
        assertEquals(200, send().statusCode());
        gw.app.load().bindings().flush();
        assertEquals(gw.clock.instant().plus(Duration.ofMinutes(30)), bindingExpiry(), "rolling TTL renewed");
    }

    @Test
    void whenTheBoundAccountFailsTheRequestSucceedsElsewhereAndTheBindingMoves() {
        assertEquals(200, send().statusCode());
        gw.app.load().bindings().flush();
        long bound = boundAccount();
        FakeUpstream boundUpstream = bound == idA ? a : b;
        FakeUpstream other = bound == idA ? b : a;
        gw.clock.advance(Duration.ofSeconds(1));
        boundUpstream.enqueue(Reply.openAiError(500, "upstream broke", "server_error"));
        HttpResponse<String> moved = send();
        assertEquals(200, moved.statusCode(), "stickiness never blocks failover");
        assertEquals(1, other.requestCount());
        gw.app.load().bindings().flush();
        assertEquals(bound == idA ? idB : idA, boundAccount(), "the binding moved to the account that served");
    }

    @Test
    void aSecondInstanceOnTheSameDatabaseHonoursTheBinding() {
        assertEquals(200, send().statusCode());
        gw.app.load().bindings().flush();
        long bound = boundAccount();
        try (App second = TestApp.start(gw.clock)) {
            for (int i = 0; i < 3; i++) {
                gw.clock.advance(Duration.ofSeconds(1));
                HttpResponse<String> r = gw.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + second.port() + "/v1/chat/completions"))
                        .header("Authorization", "Bearer " + gw.key()).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(BODY)).build());
                assertEquals(200, r.statusCode());
            }
        }
        assertEquals(4, (bound == idA ? a : b).requestCount(), "every request on the bound account");
    }

    @Test
    void theSweepDeletesExpiredBindings() {
        assertEquals(200, send().statusCode());
        gw.app.load().bindings().flush();
        gw.clock.advance(Duration.ofMinutes(29));
        assertEquals(0, gw.app.load().bindings().sweep(gw.clock.instant()), "not yet expired");
        gw.clock.advance(Duration.ofMinutes(2));
        assertEquals(1, gw.app.load().bindings().sweep(gw.clock.instant()));
        assertNull(boundAccount());
    }

    @Test
    void aBoundAccountThatCannotServeTheModelIsUnboundAndTheRequestFallsThrough() {
        assertEquals(200, send().statusCode());
        gw.app.load().bindings().flush();
        long bound = boundAccount();
        gw.admin("PUT", "/accounts/" + bound, "{\"enabled\":false}");
        gw.clock.advance(Duration.ofSeconds(1));
        assertEquals(200, send().statusCode(), "served by the other account");
        gw.app.load().bindings().flush();
        assertEquals(bound == idA ? idB : idA, boundAccount());
    }

    @Test
    void aShorterStickyTtlFromTheSettingsAppliesLiveAndExpiresTheBinding() {
        gw.admin("PUT", "/settings", "{\"sticky_ttl_seconds\":120}");
        assertEquals(200, send().statusCode());
        gw.app.load().bindings().flush();
        assertEquals(gw.clock.instant().plus(Duration.ofSeconds(120)), bindingExpiry(), "the new TTL, no restart");

        gw.clock.advance(Duration.ofSeconds(100));
        assertEquals(200, send().statusCode());
        gw.clock.advance(Duration.ofSeconds(121)); // past the renewed expiry (100 s + 120 s)
        assertEquals(200, send().statusCode());
        java.util.List<JsonNode> events = gw.events(3);
        assertEquals("kept_session_affinity", events.get(1).path("reason_code").asText(), "within the TTL");
        assertEquals(false, "kept_session_affinity".equals(events.get(2).path("reason_code").asText()),
                "expired after 120 s without use: " + events.get(2).path("reason_code").asText());
    }

    @Test
    void aStickyTtlOfZeroTurnsStickinessOff() {
        gw.admin("PUT", "/settings", "{\"sticky_ttl_seconds\":0}");
        assertEquals(200, send().statusCode());
        gw.clock.advance(Duration.ofSeconds(1));
        assertEquals(200, send().statusCode());
        gw.app.load().bindings().flush();
        assertNull(boundAccount(), "nothing stored");
        assertEquals(false, "kept_session_affinity".equals(gw.events(2).get(1).path("reason_code").asText()));
    }
}
