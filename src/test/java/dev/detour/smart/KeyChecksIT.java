package dev.detour.smart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** K-1/K-2 end to end: every refusal before routing, spend from event costs, rotation, policy validation codes. */
class KeyChecksIT {
    private Gateway gw;
    private SmartFixture fx;
    private FakeUpstream up;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        fx = new SmartFixture(gw);
        up = FakeUpstream.start();
        fx.account("a", up, "default", 0, "m", "up-m");
    }

    @AfterEach
    void stop() {
        gw.close();
        up.close();
    }

    @Test
    void disabledAndExpiredKeysAreRefusedWith401() {
        String disabled = fx.key("{\"name\":\"off\",\"enabled\":false}");
        String expired = fx.key("{\"name\":\"old\",\"expires_at\":\"2026-11-29T09:59:59Z\"}");
        for (String key : new String[] {disabled, expired}) {
            HttpResponse<String> r = fx.chat(key, "m");
            assertEquals(401, r.statusCode());
            assertEquals("auth.invalid_key", SmartFixture.errorCode(r));
        }
        assertEquals(0, up.requestCount());
    }

    @Test
    void aModelOutsideTheAllowedListIsRefusedWith403() {
        String key = fx.key("{\"name\":\"narrow\",\"allowed_models\":[\"other\"]}");
        HttpResponse<String> r = fx.chat(key, "m");
        assertEquals(403, r.statusCode());
        assertEquals("key.model_not_allowed", SmartFixture.errorCode(r));
        assertEquals(0, up.requestCount());
    }

    @Test
    void reachingTheSpendLimitIsRefusedWith429AndSpendIsStoredFromEventCosts() {
        fx.prices("[{\"model\":\"up-m\",\"input_micros_per_m\":1000000,\"output_micros_per_m\":1000000}]");
        JsonNode created = fx.createKey("{\"name\":\"budget\",\"spend_limit\":0.00001}");
        String key = created.path("key").asText();
        assertEquals(200, fx.chat(key, "m").statusCode(), "under the limit (0 of 10 micros spent)");
        HttpResponse<String> refused = fx.chat(key, "m");
        assertEquals(429, refused.statusCode());
        assertEquals("key.spend_limit", SmartFixture.errorCode(refused));
        assertEquals(1, up.requestCount(), "the refused request never reached an upstream");
        long id = created.path("id").asLong();
        Gateway.await(() -> gw.admin("GET", "/keys/" + id, null).path("spent_micros").asLong() > 0,
                "spend written from the event's cost");
        JsonNode event = gw.events(2).get(0);
        long costMicros = Math.round(event.path("cost").asDouble() * 1_000_000);
        assertEquals(costMicros, gw.admin("GET", "/keys/" + id, null).path("spent_micros").asLong());
    }

    @Test
    void aPolicyThatRemovesEveryRouteIsRefusedWithNoEligibleRouteNamingTheReason() {
        String key = fx.key("{\"name\":\"cheapskate\",\"max_ratio_ppm\":100000}");
        HttpResponse<String> r = fx.chat(key, "m");
        assertEquals(502, r.statusCode());
        assertEquals("route_pool.no_eligible_route", SmartFixture.errorCode(r));
        String message = SmartFixture.json(r).path("error").path("message").asText();
        assertTrue(message.contains("price ceiling") && message.contains("rejected_ratio_ceiling"), message);
    }

    @Test
    void rotationGivesANewSecretAndTheOldOneStopsWorking() {
        JsonNode created = fx.createKey("{\"name\":\"rot\"}");
        String old = created.path("key").asText();
        assertEquals(200, fx.chat(old, "m").statusCode());
        JsonNode rotated = gw.admin("POST", "/keys/" + created.path("id").asLong() + "/rotate", null);
        String fresh = rotated.path("key").asText();
        assertTrue(fresh.startsWith("dtr-"));
        assertNotEquals(old, fresh);
        assertEquals(401, fx.chat(old, "m").statusCode());
        assertEquals(200, fx.chat(fresh, "m").statusCode());
    }

    @Test
    void policyValidationErrorsCarryStableCodes() {
        String[][] cases = {
            {"{\"name\":\"k\",\"strategy\":\"fastest\"}", "validation.key_policy.strategy"},
            {"{\"name\":\"k\",\"strategy\":\"balanced\",\"balanced_weights\":{\"stability\":50,\"price\":50,"
                    + "\"latency\":50}}", "validation.key_policy.balanced_weights"},
            {"{\"name\":\"k\",\"max_ratio_ppm\":-1}", "validation.key_policy.max_ratio_ppm"},
            {"{\"name\":\"k\",\"max_attempts\":-2}", "validation.key_policy.max_attempts"},
            {"{\"name\":\"k\",\"affinity_premium_pct\":101}", "validation.key_policy.affinity_premium_pct"},
            {"{\"name\":\"k\",\"spend_limit\":\"lots\"}", "validation.key_policy.spend_limit"},
            {"{\"name\":\"k\",\"groups\":{\"include\":[\"nope\"]}}", "validation.key_policy.groups"},
            {"{\"name\":\"k\",\"allowed_models\":\"m\"}", "validation.key_policy.allowed_models"},
        };
        for (String[] c : cases) {
            assertEquals(c[1], gw.admin("POST", "/keys", c[0]).path("error").path("code").asText(), c[0]);
        }
    }
}
