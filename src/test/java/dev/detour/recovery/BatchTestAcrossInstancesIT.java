package dev.detour.recovery;

import static dev.detour.recovery.RecoveryFixture.MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.core.cluster.Heartbeat;
import dev.detour.fake.Bodies;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import dev.detour.testkit.Gateway;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * W-3 across the cluster: two Apps on one database. A batch run by one instance is read live on the other,
 * outlasts a restart, and reads as interrupted (not running forever) once its instance is gone.
 */
class BatchTestAcrossInstancesIT {
    private final CountDownLatch release = new CountDownLatch(1);
    private Gateway gw;
    private Gateway second;
    private FakeUpstream upstream;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        gw.app.recovery().stopLoop();
        upstream = FakeUpstream.start().handler(this::behave);
        gw.admin("PUT", "/settings", "{\"probe_concurrency\":4,\"probe_budget_per_minute\":600}");
    }

    @AfterEach
    void stop() {
        release.countDown();
        if (second != null) {
            second.close();
        }
        gw.close();
        upstream.close();
    }

    /** An account whose key says "held" gets its answer only once the test releases it. */
    private Reply behave(RecordedRequest request) {
        if (request.header("authorization").contains("-held-")) {
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return Reply.json(200, Bodies.chatCompletion(request.model(), "p"));
    }

    /** The second instance, started a second later, seen live by the first. */
    private Gateway secondInstance() {
        gw.clock.advance(Duration.ofSeconds(1));
        second = gw.beside();
        second.app.recovery().stopLoop();
        gw.app.instances().beat(gw.clock.instant());
        assertEquals(2, gw.app.instances().liveCount());
        return second;
    }

    private static String status(JsonNode batch, long accountId) {
        for (JsonNode line : batch.path("results")) {
            if (line.path("account_id").asLong() == accountId) {
                return line.path("status").asText();
            }
        }
        throw new AssertionError("no line for account " + accountId + " in " + batch);
    }

    private static JsonNode read(Gateway at, String batch) {
        return at.admin("GET", "/accounts/test/" + batch, null);
    }

    @Test
    void aBatchRunByOneInstanceIsReadLiveOnTheOtherAndOutlastsARestart() {
        long quick = gw.account("quick-1", upstream, MAPS, null);
        long held = gw.account("held-2", upstream, MAPS, null);
        secondInstance();
        String batch = second.admin("POST", "/accounts/test", "{\"model\":\"gpt-5.6-sol\"}").path("batch").asText();

        JsonNode[] live = new JsonNode[1];
        Gateway.await(() -> {
            live[0] = read(gw, batch);
            return status(live[0], quick).equals("passed") && status(live[0], held).equals("running");
        }, "the first instance sees the second's batch under way");
        assertFalse(live[0].path("done").asBoolean(), live[0].toString());
        assertFalse(live[0].path("interrupted").asBoolean(), live[0].toString());
        assertEquals("gpt-5.6-sol", live[0].path("model").asText());

        release.countDown();
        JsonNode[] finished = new JsonNode[1];
        Gateway.await(() -> (finished[0] = read(gw, batch)).path("done").asBoolean(), "batch done");
        assertEquals("passed", status(finished[0], held));
        assertEquals(2, finished[0].path("counts").path("passed").asInt(), finished[0].toString());
        JsonNode line = finished[0].path("results").get(1);
        assertEquals(200, line.path("http_status").asInt(), line.toString());
        assertEquals("upstream-sol", line.path("served_model").asText(), line.toString());
        assertTrue(line.path("ttft_ms").isIntegralNumber(), line.toString());

        gw = gw.restart();
        JsonNode afterRestart = read(gw, batch);
        assertEquals(finished[0].path("results"), afterRestart.path("results"), "the stored lines outlast a restart");
        assertTrue(afterRestart.path("done").asBoolean());
        assertFalse(afterRestart.path("interrupted").asBoolean());
    }

    @Test
    void aBatchWhoseInstanceDiedReadsAsInterruptedInsteadOfRunningForever() throws InterruptedException {
        long first = gw.account("held-1", upstream, MAPS, null);
        long other = gw.account("held-2", upstream, MAPS, null);
        secondInstance();
        second.app.instances().stopLoop(); // it beats no more: what a crashed instance looks like to the others
        String batch = second.admin("POST", "/accounts/test", "{\"model\":\"gpt-5.6-sol\"}").path("batch").asText();
        upstream.awaitRequests(2);

        JsonNode running = read(gw, batch);
        assertEquals("running", status(running, first), running.toString());
        assertFalse(running.path("done").asBoolean());

        gw.clock.advance(Heartbeat.GONE_AFTER.plusSeconds(1));
        JsonNode cut = read(gw, batch);
        assertTrue(cut.path("done").asBoolean(), cut.toString());
        assertTrue(cut.path("interrupted").asBoolean(), cut.toString());
        assertEquals("interrupted", status(cut, first));
        assertEquals("interrupted", status(cut, other));
        assertEquals(2, cut.path("counts").path("interrupted").asInt());
    }
}
