package dev.detour.smart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.wire.KeyHashes;
import dev.detour.testkit.AlertReceiver;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.OneUpstreamCase;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * W-1 over real parts: a key's spend reaching its lifetime limit (K-2) and one of its rolling spend
 * windows (L-1) through real requests on a priced account is an alert at a real HTTP receiver, without
 * the key's secret.
 */
class KeySpendAlertsIT extends OneUpstreamCase {
    private AlertReceiver receiver;
    private SmartFixture fx;

    @BeforeEach
    void receiverAndPricedAccount() {
        receiver = AlertReceiver.webhookFor(gw, "spend", "/spend", ",\"events\":[\"key.spend_80\","
                + "\"key.spend_100\",\"key.window_spend_80\",\"key.window_spend_100\"]");
        fx = new SmartFixture(gw);
        fx.pricedAccount(upstream);
    }

    @AfterEach
    void closeReceiver() {
        receiver.close();
    }

    private void tick() {
        gw.app.alerts().tick(gw.clock.instant());
    }

    private List<String> received() {
        return receiver.at("/spend").stream().map(r -> Gateway.read(r.body()))
                .map(a -> a.path("event").asText() + " " + a.path("object").asText()).toList();
    }

    @Test
    void aKeyReachingItsSpendLimitAndItsDaySpendWindowIsTwoAlerts() {
        // 10 micros for life and for the day; one fake chat costs more than 12 micros
        JsonNode created = fx.createKey("{\"name\":\"budget\",\"spend_limit\":0.00001,"
                + "\"spend_windows\":{\"day\":10}}");
        String key = created.path("key").asText();
        long id = created.path("id").asLong();
        tick(); // the baseline: nothing spent
        assertEquals(List.of(), received());

        assertEquals(200, fx.chat(key, "m").statusCode());
        KeyEntry entry = gw.app.snapshot().view().keysByHash().get(KeyHashes.sha256Hex(key));
        Gateway.await(() -> gw.app.smartKeys().spentMicros(id) >= 10, "the lifetime spend counted");
        Gateway.await(() -> gw.app.smartKeys().limits().headroom(entry).stream().anyMatch(h -> h.used() >= 10),
                "the day window's spend counted");
        tick();

        assertEquals(List.of("key.spend_100 key:" + id, "key.window_spend_100 key:" + id + ":day"),
                received().stream().sorted().toList());
        JsonNode window = receiver.at("/spend").stream().map(r -> Gateway.read(r.body()))
                .filter(a -> a.path("event").asText().equals("key.window_spend_100")).findFirst().orElseThrow();
        assertTrue(window.path("title").asText().contains("budget"), window.toString());
        assertTrue(window.path("title").asText().contains("day"), window.toString());
        receiver.received().forEach(r -> assertFalse(r.body().contains(key), "no key secret in an alert"));

        tick();
        assertEquals(2, received().size(), "a limit that stays reached is no news");
    }
}
