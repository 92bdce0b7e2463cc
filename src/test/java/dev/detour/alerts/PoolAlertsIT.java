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
        gw.app.alerts().stopLoop();
        receiver = AlertReceiver.start();
        gw.admin("POST", "/alerts/channels", "{\"name\":\"ops\",\"kind\":\"webhook\",\"url\":\""
                + receiver.url("/ops") + "\"}");
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
}
