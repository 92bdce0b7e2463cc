package dev.detour.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.Reply;
import dev.detour.testkit.AlertReceiver;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TwoUpstreamsCase;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * W-1 end to end: the fake upstream drives an account out of service through the real attempt loop,
 * and the alert reaches a real HTTP receiver on the next alert tick, without the account's key.
 */
class PoolAlertsIT extends TwoUpstreamsCase {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    private AlertReceiver receiver;

    @BeforeEach
    void receiver() {
        receiver = AlertReceiver.webhookFor(gw, "ops", "/ops", "");
    }

    @AfterEach
    void closeReceiver() {
        receiver.close();
    }

    private void tick() {
        gw.app.alerts().tick(gw.clock.instant());
    }

    private List<JsonNode> alerts() {
        return receiver.at("/ops").stream().map(r -> Gateway.read(r.body())).toList();
    }

    @Test
    void anAccountRevokedByItsUpstreamIsAnAlertAtTheReceiverWithoutItsKey() {
        long id = gw.account("relay-a", a, MAPS, null);
        tick(); // the pool as it is now is the baseline: nothing to tell
        assertEquals(List.of(), alerts());
        a.enqueue(Reply.openAiError(401, "token has been revoked (key sk-test-relay-a-secret)", "invalid_api_key"));

        gw.chat("gpt-5.6-sol");
        JsonNode state = gw.accountState(id);
        assertEquals("revoked", state.path("status").asText(), state.toString());
        tick();

        List<String> events = alerts().stream().map(a -> a.path("event").asText() + " " + a.path("object").asText())
                .toList();
        assertTrue(events.contains("account.revoked account:" + id), events.toString());
        assertTrue(events.contains("group.unavailable group:" + gw.defaultGroupId()), events.toString());
        JsonNode revoked = alerts().stream().filter(a -> a.path("event").asText().equals("account.revoked"))
                .findFirst().orElseThrow();
        assertTrue(revoked.path("title").asText().contains("relay-a"), revoked.toString());
        receiver.received().forEach(r -> assertFalse(r.body().contains("sk-test-relay-a-secret"), r.body()));

        tick(); // nothing changed since: nothing more
        assertEquals(events.size(), alerts().size());
    }

    @Test
    void anAccountBackInServiceIsARecoveredAlert() {
        long id = gw.account("relay-a", a, MAPS, null);
        gw.account("relay-b", b, MAPS, "{\"priority\":1}"); // relay-a is asked first, so it gets the 402
        tick();
        a.enqueue(Reply.openAiError(402, "insufficient quota", "insufficient_quota"));
        gw.chat("gpt-5.6-sol");
        assertEquals("error", gw.accountState(id).path("status").asText(), gw.accountState(id).toString());
        tick();
        assertEquals(List.of("account.error"), alerts().stream().map(a -> a.path("event").asText()).toList(),
                "relay-b still serves: the group is not unavailable");

        gw.admin("POST", "/accounts/" + id + "/recover", "{}");
        tick();
        assertEquals(List.of("account.error", "account.recovered"),
                alerts().stream().map(a -> a.path("event").asText()).toList());
    }

    private List<String> received() {
        return alerts().stream().map(a -> a.path("event").asText() + " " + a.path("object").asText()).toList();
    }

    @Test
    void anAccountOutOfServiceAndBackBeforeTheNextTickIsBothAlerts() {
        long id = gw.account("relay-a", a, MAPS, null);
        gw.account("relay-b", b, MAPS, "{\"priority\":1}");
        tick();
        a.enqueue(Reply.openAiError(402, "insufficient quota", "insufficient_quota"));
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode(), "relay-b serves");
        gw.settled();
        gw.admin("POST", "/accounts/" + id + "/recover", "{}"); // back within the same second

        tick(); // a comparison of two pictures would see ok and ok: nothing
        assertEquals(List.of("account.error account:" + id, "account.recovered account:" + id), received());
    }

    @Test
    void aChangeNoRunningInstanceLookedAtIsAlertedByTheNextProcess() {
        long id = gw.account("relay-a", a, MAPS, null);
        gw.account("relay-b", b, MAPS, "{\"priority\":1}");
        a.enqueue(Reply.openAiError(401, "token has been revoked", "invalid_api_key"));
        gw.chat("gpt-5.6-sol");
        gw.settled();
        gw = gw.restart(); // the instance that saw it is gone before any alert tick
        gw.app.alerts().stopLoop();

        tick(); // the new process's first look at the pool is its baseline: the revocation comes from the outbox
        assertEquals(List.of("account.revoked account:" + id), received());
        tick();
        assertEquals(1, received().size(), "fanned out once");
    }

    @Test
    void aModelRowFlippedToErrorIsAModelErrorAlertWhileTheAccountStaysInService() {
        long id = gw.account("relay-a", a, MAPS, "{\"failure_policy\":{\"retry_count\":0,\"retry_interval_ms\":0,"
                + "\"cooldown_enabled\":true,\"cooldown_seconds\":10,\"semantic_error_threshold\":1}}");
        gw.account("relay-b", b, MAPS, "{\"priority\":1}");
        tick();
        a.enqueue(Reply.openAiError(500, "boom", "server_error"));
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode(), "relay-b serves");
        gw.settled();
        assertEquals("ok", gw.accountState(id).path("status").asText());

        tick();
        assertEquals(List.of("model.error model:" + id + ":upstream-sol"), received());
        JsonNode alert = alerts().get(0);
        assertTrue(alert.path("title").asText().contains("upstream-sol"), alert.toString());
        assertTrue(alert.path("title").asText().contains("relay-a"), alert.toString());
    }

    @Test
    void aGroupHaltBeginningIsAGroupHaltedAlert() {
        gw.enableGroupHalt();
        // error_status_enabled off: the 402 keeps the account ok (F-5), so the halt is what stops traffic
        gw.account("relay-a", a, MAPS, "{\"failure_policy\":{\"retry_count\":0,\"error_status_enabled\":false}}");
        tick();
        a.enqueue(Reply.openAiError(402, "payment required", "billing_error"));
        assertEquals(502, gw.chat("gpt-5.6-sol").statusCode());
        gw.settled();

        tick();
        List<String> events = received();
        assertTrue(events.contains("group.halted group:" + gw.defaultGroupId()), events.toString());
        JsonNode halted = alerts().stream().filter(x -> x.path("event").asText().equals("group.halted")).findFirst()
                .orElseThrow();
        assertTrue(halted.path("title").asText().contains("default"), halted.toString());
        tick();
        assertEquals(events.size(), received().size(), "a halt that goes on is no news");
    }
}
