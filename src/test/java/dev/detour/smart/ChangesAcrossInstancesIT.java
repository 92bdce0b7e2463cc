package dev.detour.smart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.App;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestApp;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * G-3: a key change, an account edit and a block rule made through one instance are honoured by another instance
 * on the same database at its next snapshot reload (the refresher's once-a-second revision read; the test calls
 * it): the change moves the pool revision, the reload brings it in. A response binding (P-10) made on one is
 * honoured on the other (read through on an id it does not know). A group halt (S-9) made by traffic through one
 * is honoured by the other: the halt is written with the pool revision, so the other's reload brings it in. Cooldowns and pauses across instances are
 * checked on the Galera cluster (CrossInstanceOnGaleraIT), runtime settings in SettingsAcrossInstancesIT.
 */
class ChangesAcrossInstancesIT {
    private Gateway gw;
    private SmartFixture fx;
    private App second;
    private FakeUpstream up;
    private long account;
    private JsonNode key;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        fx = new SmartFixture(gw);
        up = FakeUpstream.start().handler(r -> Reply.chatCompletion());
        account = fx.account("a", up, "default", 0, "m", "up-m");
        key = fx.createKey("{\"name\":\"across\"}");
        second = TestApp.start(gw.clock); // its snapshot holds the account and the key
        assertEquals(200, chatOnSecond().statusCode(), "served through the second instance before the change");
    }

    @AfterEach
    void stop() {
        if (second != null) {
            second.close();
        }
        gw.close();
        up.close();
    }

    @Test
    void aKeyDisabledThroughOneInstanceIsRefusedByTheOtherAfterItsNextReload() {
        gw.admin("PUT", "/keys/" + key.path("id").asLong(), "{\"enabled\":false}");
        second.snapshot().refreshIfChanged();

        HttpResponse<String> refused = chatOnSecond();
        assertEquals(401, refused.statusCode(), refused.body());
        assertEquals("auth.invalid_key", SmartFixture.errorCode(refused));
        assertEquals(1, up.requestCount(), "only the request before the change reached the upstream");
    }

    @Test
    void anAccountDisabledThroughOneInstanceGetsNoRequestFromTheOtherAfterItsNextReload() {
        gw.admin("PUT", "/accounts/" + account, "{\"enabled\":false}");
        second.snapshot().refreshIfChanged();

        HttpResponse<String> refused = chatOnSecond();
        assertEquals(5, refused.statusCode() / 100, "refused (no account serves m): " + refused.body());
        assertEquals(1, up.requestCount(), "the disabled account got nothing more");
    }

    @Test
    void aBlockRuleMadeThroughOneInstanceIsAppliedByTheOtherAfterItsNextReload() {
        gw.admin("POST", "/blocks", "{\"scope\":\"model\",\"value\":\"m\",\"reason\":\"incident\",\"expires_at\":null}");
        second.snapshot().refreshIfChanged();

        HttpResponse<String> refused = chatOnSecond();
        assertEquals(5, refused.statusCode() / 100, "refused by the block: " + refused.body());
        assertEquals(1, up.requestCount(), "the blocked model reached no upstream");
    }

    @Test
    void aResponseCreatedThroughOneInstanceIsContinuedOnItsAccountThroughTheOther() {
        FakeUpstream other = FakeUpstream.start().handler(r -> Reply.json(200, response("resp_other")));
        try {
            fx.account("b", other, "default", 1, "m", "up-m");
            up.enqueue(Reply.json(200, response("resp_across")));
            assertEquals(200, fx.post(key.path("key").asText(), "/v1/responses", "{\"model\":\"m\",\"input\":\"hi\"}")
                    .statusCode(), "created through the first instance on account a (priority 0)");
            Gateway.await(() -> gw.app.smartKeys().boundAccount("resp_across", gw.clock.instant()) != null,
                    "the response binding written");
            gw.admin("PUT", "/accounts/" + account, "{\"priority\":5}"); // a is now last for any unbound request
            second.snapshot().refreshIfChanged();

            int before = up.requestCount();
            up.enqueue(Reply.json(200, response("resp_next")));
            HttpResponse<String> continued = postOnSecond("/v1/responses",
                    "{\"model\":\"m\",\"input\":\"more\",\"previous_response_id\":\"resp_across\"}");
            assertEquals(200, continued.statusCode(), continued.body());
            assertEquals(before + 1, up.requestCount(), "the creating account served the continuation");
            assertEquals(0, other.requestCount());
            assertEquals(200, postOnSecond("/v1/responses", "{\"model\":\"m\",\"input\":\"new\"}").statusCode());
            assertEquals(1, other.requestCount(), "an unbound request goes to b first: the binding decided");
        } finally {
            other.close();
        }
    }

    @Test
    void aGroupHaltMadeThroughOneInstanceIsHonouredByTheOtherAfterItsNextReload() {
        gw.enableGroupHalt();
        second.snapshot().refreshIfChanged(); // the opt-in is a change like any other
        up.enqueue(Reply.openAiError(429, "rate limit reached", "rate_limit_exceeded"));
        assertEquals(429, fx.chat(key.path("key").asText(), "m").statusCode(),
                "the group's only account rate limited through the first instance: S-9 halts the group");
        gw.settled(); // the halt is written with the pool revision by the first instance's state writer
        second.snapshot().refreshIfChanged();

        HttpResponse<String> halted = chatOnSecond();
        assertEquals(503, halted.statusCode(), halted.body());
        assertEquals("route_pool.halted", SmartFixture.errorCode(halted));
        assertEquals("30", halted.headers().firstValue("retry-after").orElseThrow(), "the halt's own 30 s");
        assertEquals(2, up.requestCount(), "nothing reached the upstream through the second instance while halted");

        gw.clock.advance(Duration.ofSeconds(31));
        assertEquals(200, chatOnSecond().statusCode(), "the halt ends on the shared clock for the second too");
    }

    @Test
    void aGroupHaltMadeThroughOneInstanceReachesTheOtherThroughItsOwnRefresherWithinItsOneSecondBeat() {
        gw.enableGroupHalt();
        Gateway.await(() -> second.snapshot().view().groups().values().stream().anyMatch(g -> g.haltPolicyOn()),
                "the opt-in read by the second instance's refresher");
        up.enqueue(Reply.openAiError(429, "rate limit reached", "rate_limit_exceeded"));
        fx.chat(key.path("key").asText(), "m");
        gw.settled();
        long written = System.nanoTime();
        // the real refresher thread, no manual reload: polled with the testkit's bound, the time printed, not asserted
        Gateway.await(() -> second.snapshot().view().groups().values().stream()
                .anyMatch(g -> g.haltedAt(gw.clock.instant())), "the halt seen by the second instance");
        System.out.printf("G-3 group halt seen by the other instance %d ms after its write%n",
                (System.nanoTime() - written) / 1_000_000);

        HttpResponse<String> halted = chatOnSecond();
        assertEquals(503, halted.statusCode(), halted.body());
        assertEquals("route_pool.halted", SmartFixture.errorCode(halted));
        assertEquals(2, up.requestCount(), "nothing reached the upstream through the second instance while halted");
    }

    private static String response(String id) {
        return "{\"id\":\"" + id + "\",\"object\":\"response\",\"status\":\"completed\",\"output\":[{\"type\":"
                + "\"message\",\"content\":[{\"type\":\"output_text\",\"text\":\"hi\"}]}],\"usage\":{\"input_tokens\":5,"
                + "\"output_tokens\":1}}";
    }

    private HttpResponse<String> chatOnSecond() {
        return postOnSecond("/v1/chat/completions",
                "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
    }

    private HttpResponse<String> postOnSecond(String path, String body) {
        return gw.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + second.port() + path))
                .header("Authorization", "Bearer " + key.path("key").asText())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    }
}
