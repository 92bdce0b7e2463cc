package dev.detour.recovery;

import static dev.detour.recovery.RecoveryFixture.MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** R-3 healthcheck end to end: the real App, a fake upstream, the scheduler ticked with a controlled clock. */
class HealthcheckRecoveryIT {
    private static final String POLICY = "{\"failure_policy\":{\"retry_count\":0,\"retry_interval_ms\":0,"
            + "\"cooldown_enabled\":true,\"cooldown_seconds\":10,\"semantic_error_threshold\":2},"
            + "\"recovery\":{\"mode\":\"healthcheck\",\"probe_interval_minutes\":1}}";
    private Gateway gw;
    private FakeUpstream upstream;
    private RecoveryScheduler scheduler;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        upstream = FakeUpstream.start();
        scheduler = gw.app.recovery();
        scheduler.stopLoop(); // the test drives tick(now) itself
    }

    @AfterEach
    void stop() {
        gw.close();
        upstream.close();
    }

    @Test
    void aModelFlippedToErrorByAStreakComesBackOnlyWhenTheProbePasses() {
        long id = gw.account("a", upstream, MAPS, POLICY);
        upstream.enqueue(Reply.openAiError(500, "boom", "server_error"), Reply.openAiError(500, "boom", "server_error"));
        assertEquals(503, gw.chat("gpt-5.6-sol").statusCode()); // P-8' (revised from 502): a 5xx
        gw.clock.advance(Duration.ofSeconds(11));
        assertEquals(503, gw.chat("gpt-5.6-sol").statusCode());
        gw.clock.advance(Duration.ofSeconds(11)); // the row's cooldown has expired: now only its error status holds it
        assertEquals("error", RecoveryFixture.model(gw.accountState(id), "upstream-sol").path("status").asText(),
                "two failures with one fingerprint reach the threshold of 2");

        upstream.enqueue(Reply.openAiError(500, "boom", "server_error"));
        assertEquals(1, scheduler.tick(gw.clock.instant()).probesStarted());
        List<JsonNode> events = gw.events(3);
        assertEquals("healthcheck_probe", events.get(2).path("reason_code").asText());
        assertEquals("failure", events.get(2).path("outcome").asText());
        assertEquals("error", RecoveryFixture.model(gw.accountState(id), "upstream-sol").path("status").asText(),
                "a failing probe recovers nothing");

        gw.clock.advance(Duration.ofSeconds(30));
        assertEquals(0, scheduler.tick(gw.clock.instant()).probesStarted(), "not due before the interval");
        assertEquals(3, upstream.requestCount());

        gw.clock.advance(Duration.ofSeconds(30));
        assertEquals(1, scheduler.tick(gw.clock.instant()).probesStarted());
        events = gw.events(4);
        assertEquals("success", events.get(3).path("outcome").asText());
        RecordedRequest probe = upstream.lastRequest();
        assertEquals("/v1/chat/completions", probe.path());
        assertEquals("upstream-sol", probe.model());
        assertEquals(1, Gateway.read(probe.body()).path("max_tokens").asInt(), "a minimal request");
        Gateway.await(() -> RecoveryFixture.modelRows(id).isEmpty(), "the error row is gone");
        JsonNode state = gw.accountState(id);
        assertNull(RecoveryFixture.model(state, "upstream-sol"));
        assertEquals("ok", state.path("status").asText());
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode(), "selectable again");
    }

    @Test
    void aPassingProbeLeavesSiblingModelRowsAlone() {
        long id = gw.account("a", upstream, MAPS, POLICY);
        RecoveryFixture.setStatus(id, "error");
        RecoveryFixture.modelRow(gw, id, "upstream-glm", "error", false);
        RecoveryFixture.modelRow(gw, id, "upstream-sol", "ok", true);
        gw.app.snapshot().reload();

        assertEquals(1, scheduler.tick(gw.clock.instant()).probesStarted());
        gw.events(1);
        Gateway.await(() -> RecoveryFixture.status(id).equals("ok"), "account recovered");
        assertEquals("upstream-glm", upstream.lastRequest().model(), "the row most in need was probed");
        assertEquals(List.of("upstream-sol:ok"), RecoveryFixture.modelRows(id),
                "explicit-test recovery covers the account, not its sibling models");
    }

    @Test
    void pausedProbesStartNothingUntilResumed() {
        long id = gw.account("a", upstream, MAPS, POLICY);
        RecoveryFixture.setStatus(id, "error");
        gw.app.snapshot().reload();
        gw.admin("POST", "/recovery/probes/pause", "{}");
        assertTrue(gw.admin("GET", "/recovery", null).path("probes_paused").asBoolean());
        assertEquals(0, scheduler.tick(gw.clock.instant()).probesStarted());
        gw.admin("POST", "/recovery/probes/resume", "{}");
        assertEquals(1, scheduler.tick(gw.clock.instant().plusSeconds(30)).probesStarted());
        JsonNode audit = gw.admin("GET", "/audit?limit=10", null);
        assertNotNull(audit);
        assertTrue(audit.toString().contains("recovery.probes_pause") && audit.toString().contains("recovery.probes_resume"),
                "both switches are audited: " + audit);
    }

    @Test
    void aPausedAccountIsNeverProbedByAutomation() {
        long id = gw.account("a", upstream, MAPS, POLICY);
        RecoveryFixture.setStatus(id, "paused");
        gw.app.snapshot().reload();
        RecoveryScheduler.TickReport report = scheduler.tick(gw.clock.instant());
        assertTrue(report.leader());
        assertEquals(0, report.probesStarted());
        assertEquals(0, upstream.requestCount());
    }
}
