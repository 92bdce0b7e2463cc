package dev.detour.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.App;
import dev.detour.core.alerts.Alert;
import dev.detour.core.alerts.AlertKind;
import dev.detour.fake.Reply;
import dev.detour.testkit.AlertReceiver;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TwoUpstreamsCase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * W-1 with two Apps on one database, both alert threads ticked by the test: a recorded state change is
 * sent once for the cluster, the suppression window is the cluster's, and a due retry is sent by one
 * instance only.
 */
class AlertsAcrossInstancesIT extends TwoUpstreamsCase {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    private AlertReceiver receiver;
    private App second;

    @BeforeEach
    void twoInstancesAndAReceiver() {
        receiver = AlertReceiver.webhookFor(gw, "ops", "/ops", ",\"suppress_seconds\":600");
        gw.clock.advance(Duration.ofSeconds(1));
        second = TestApp.start(gw.clock);
        second.alerts().stopLoop();
    }

    @AfterEach
    void stopSecondAndReceiver() {
        second.close();
        receiver.close();
    }

    private void tickBoth() {
        gw.app.alerts().tick(gw.clock.instant());
        second.alerts().tick(gw.clock.instant());
    }

    private List<String> received(String event) {
        return receiver.at("/ops").stream().map(r -> Gateway.read(r.body()))
                .filter(a -> a.path("event").asText().equals(event)).map(a -> a.path("object").asText()).toList();
    }

    @Test
    void aRecordedStateChangeIsSentOnceWhicheverInstancesTick() {
        long id = gw.account("relay-a", a, MAPS, null);
        gw.account("relay-b", b, MAPS, "{\"priority\":1}");
        a.enqueue(Reply.openAiError(401, "token has been revoked", "invalid_api_key"));
        gw.chat("gpt-5.6-sol");
        gw.settled();

        second.alerts().tick(gw.clock.instant()); // the instance that did not see it gets there first
        tickBoth();
        tickBoth();
        assertEquals(List.of("account:" + id), received("account.revoked"));
    }

    @Test
    void theSuppressionWindowIsTheClustersNotOneInstancesMemory() {
        Alert unavailable = new Alert(AlertKind.GROUP_UNAVAILABLE, "group:9", "every account of group g is"
                + " unavailable", "no account of group g (9) can serve now", gw.clock.instant());
        gw.app.alerts().dispatcher().publish(unavailable);
        gw.app.alerts().tick(gw.clock.instant());
        gw.clock.advance(Duration.ofMinutes(5));
        second.alerts().dispatcher().publish(new Alert(unavailable.kind(), unavailable.object(), unavailable.title(),
                unavailable.text(), gw.clock.instant()));
        second.alerts().tick(gw.clock.instant());
        assertEquals(List.of("group:9"), received("group.unavailable"), "5 minutes into the first's 10");

        gw.clock.advance(Duration.ofMinutes(5));
        second.alerts().dispatcher().publish(new Alert(unavailable.kind(), unavailable.object(), unavailable.title(),
                unavailable.text(), gw.clock.instant()));
        second.alerts().tick(gw.clock.instant());
        assertEquals(List.of("group:9", "group:9"), received("group.unavailable"), "the window has passed");
    }

    @Test
    void aDueRetryIsSentByOneInstance() {
        receiver.answer(500);
        gw.app.alerts().dispatcher().publish(new Alert(AlertKind.ACCOUNT_REVOKED, "account:1", "account:1 is revoked",
                "account:1 is out of service", gw.clock.instant()));
        gw.app.alerts().tick(gw.clock.instant());
        assertEquals(1, receiver.at("/ops").size());

        gw.clock.advance(Duration.ofSeconds(30));
        tickBoth();
        tickBoth();
        assertEquals(2, receiver.at("/ops").size(), "the first attempt and one retry");
        JsonNode delivery = gw.admin("GET", "/alerts/deliveries", null).path("items").get(0);
        assertEquals("sent", delivery.path("status").asText(), delivery.toString());
        assertEquals(2, delivery.path("attempts").asInt());
    }
}
