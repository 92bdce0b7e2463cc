package dev.detour.gateway.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.App;
import dev.detour.core.cluster.Heartbeat;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.Rows;
import dev.detour.testkit.TestApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * G-2 on MariaDB: two Apps on one database register by heartbeat and split max_in_flight by the
 * live count; one that stops beating is gone after the bound (the clock advanced, never slept);
 * GET /admin/api/instances lists both.
 */
class InstanceRegistryIT {
    private Gateway gw;
    private App second;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        gw.clock.advance(Duration.ofSeconds(1)); // the second starts later: rank 2
        second = TestApp.start(gw.clock);
    }

    @AfterEach
    void stop() {
        second.close();
        gw.close();
    }

    @Test
    void twoInstancesShareTheLimitAndTheSurvivorTakesItBackOnceTheOtherIsSilentPastTheBound() {
        gw.app.instances().beat(gw.clock.instant());
        assertEquals(2, gw.app.instances().liveCount());
        assertEquals(2, gw.app.load().capacityShare(3), "the first started takes the remainder");
        assertEquals(1, second.load().capacityShare(3));
        assertEquals(2, Rows.number("SELECT COUNT(*) FROM detour_instances"));

        second.instances().stopLoop(); // it stops beating, as a crashed instance does
        gw.clock.advance(Heartbeat.GONE_AFTER);
        gw.app.instances().beat(gw.clock.instant());
        assertEquals(2, gw.app.load().capacityShare(3), "within the bound it still counts");

        gw.clock.advance(Duration.ofSeconds(1));
        gw.app.instances().beat(gw.clock.instant());
        assertEquals(1, gw.app.instances().liveCount());
        assertEquals(3, gw.app.load().capacityShare(3), "the silent instance's share is given back");
        assertEquals("1", gw.app.metrics().render(gw.clock.instant()).lines().filter(l -> l.startsWith("detour_instances_live "))
                .findFirst().orElseThrow().split(" ")[1]);
    }

    @Test
    void theAdminApiListsEveryInstanceWithItsHeartbeatAndWhetherItIsLive() throws Exception {
        Instant secondStarted = gw.clock.instant();
        second.instances().stopLoop();
        gw.clock.advance(Heartbeat.GONE_AFTER.plusSeconds(1));
        gw.app.instances().beat(gw.clock.instant());

        JsonNode items = gw.admin("GET", "/instances", null).path("items");
        assertEquals(2, items.size());
        List<String> ids = new ArrayList<>();
        items.forEach(i -> ids.add(i.path("id").asText()));
        assertEquals(List.of(gw.app.instances().selfId(), second.instances().selfId()), ids, "oldest first");
        JsonNode first = items.get(0);
        assertTrue(first.path("live").asBoolean());
        assertEquals("127.0.0.1:" + gw.app.port(), first.path("address").asText());
        assertEquals("dev", first.path("version").asText(), "run from classes: no jar version");
        assertEquals(gw.clock.instant().toString(), first.path("last_seen_at").asText());
        assertEquals(Instant.parse("2026-11-29T10:00:00Z").toString(), first.path("started_at").asText());
        JsonNode other = items.get(1);
        assertFalse(other.path("live").asBoolean());
        assertEquals(secondStarted.toString(), other.path("started_at").asText());
        assertEquals(secondStarted.toString(), other.path("last_seen_at").asText());
        assertEquals("127.0.0.1:" + second.port(), other.path("address").asText());

        HttpResponse<String> anonymous = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(gw.base() + "/admin/api/instances")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, anonymous.statusCode());
        assertFalse(anonymous.body().contains(second.instances().selfId()));
        assertEquals(405, gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/admin/api/instances"))
                .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build()).statusCode());
    }

    @Test
    void anOrderlyStopRemovesTheRowAndTheOtherTakesTheWholeLimitAtItsNextBeat() {
        gw.app.instances().beat(gw.clock.instant());
        assertEquals(2, gw.app.instances().liveCount());

        second.close();
        assertEquals(1, Rows.number("SELECT COUNT(*) FROM detour_instances"));
        gw.app.instances().beat(gw.clock.instant());
        assertEquals(3, gw.app.load().capacityShare(3));
        assertEquals(1, gw.admin("GET", "/instances", null).path("items").size());
    }
}
