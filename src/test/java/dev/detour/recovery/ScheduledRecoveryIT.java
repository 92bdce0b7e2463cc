package dev.detour.recovery;

import static dev.detour.recovery.RecoveryFixture.MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** R-3 scheduled mode against the real database: full reactivation, never for paused or revoked. */
class ScheduledRecoveryIT {
    private Gateway gw;
    private FakeUpstream upstream;
    private RecoveryScheduler scheduler;
    private String inAMinute;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        upstream = FakeUpstream.start();
        scheduler = gw.app.recovery();
        scheduler.stopLoop();
        // the App evaluates times in the machine's zone: configure the local minute after "now"
        inAMinute = LocalDateTime.ofInstant(gw.clock.instant().plusSeconds(60), ZoneId.systemDefault()).toLocalTime()
                .truncatedTo(ChronoUnit.MINUTES).toString();
    }

    @AfterEach
    void stop() {
        gw.close();
        upstream.close();
    }

    private long scheduledAccount(String name) {
        return gw.account(name, upstream, MAPS, "{\"recovery\":{\"mode\":\"scheduled\",\"times\":[\"" + inAMinute + "\"]}}");
    }

    @Test
    void scheduledRecoveryReactivatesAnErrorAccountAndDeletesOnlyItsNonPausedRows() {
        long error = scheduledAccount("error");
        long revoked = scheduledAccount("revoked");
        long paused = scheduledAccount("paused");
        RecoveryFixture.setStatus(error, "error");
        RecoveryFixture.modelRow(gw, error, "upstream-sol", "error", false);
        RecoveryFixture.modelRow(gw, error, "upstream-glm", "paused", false);
        RecoveryFixture.setStatus(revoked, "revoked");
        RecoveryFixture.setStatus(paused, "paused");
        RecoveryFixture.modelRow(gw, paused, "upstream-sol", "ok", true);
        gw.app.snapshot().reload();

        assertEquals(0, scheduler.tick(gw.clock.instant()).reactivated(), "the time has not come yet");
        assertEquals("error", RecoveryFixture.status(error));

        gw.clock.advance(Duration.ofSeconds(60));
        RecoveryScheduler.TickReport report = scheduler.tick(gw.clock.instant());
        assertEquals(1, report.reactivated());
        assertEquals("ok", RecoveryFixture.status(error));
        assertEquals(List.of("upstream-glm:paused"), RecoveryFixture.modelRows(error), "a pause is a person's will");
        assertEquals(0, gw.accountState(error).path("transient_failure_count").asInt());
        assertEquals("ok", gw.app.snapshot().view().byId().get(error).status().wire(), "this instance sees it at once");
        assertEquals("revoked", RecoveryFixture.status(revoked), "revoked is never auto-recovered");
        assertEquals("paused", RecoveryFixture.status(paused), "automation may only undo automation");
        assertEquals(List.of("upstream-sol:ok"), RecoveryFixture.modelRows(paused));

        gw.clock.advance(Duration.ofSeconds(30));
        RecoveryFixture.setStatus(error, "error");
        assertEquals(0, scheduler.tick(gw.clock.instant()).reactivated(), "fires once per configured time");
    }

    @Test
    void aCorruptStoredRuleReadsAsOffAndTheLoopKeepsRunningForEveryoneElse() {
        long corrupt = scheduledAccount("corrupt");
        long healthy = scheduledAccount("healthy");
        RecoveryFixture.setStatus(corrupt, "error");
        RecoveryFixture.setStatus(healthy, "error");
        RecoveryFixture.sql("UPDATE accounts SET recovery_json = '{\"mode\":\"scheduled\",\"times\":[\"nope' WHERE id = "
                + corrupt);
        gw.app.snapshot().reload();

        scheduler.tick(gw.clock.instant());
        gw.clock.advance(Duration.ofSeconds(60));
        RecoveryScheduler.TickReport report = scheduler.tick(gw.clock.instant());
        assertTrue(report.leader());
        assertEquals(1, report.reactivated());
        assertEquals("error", RecoveryFixture.status(corrupt), "read as off");
        assertEquals("ok", RecoveryFixture.status(healthy));
        String stored = RecoveryFixture.strings("SELECT recovery_json FROM accounts WHERE id = " + corrupt).get(0);
        assertEquals("validation.recovery_config_json", gw.admin("PUT", "/accounts/" + corrupt,
                "{\"recovery\":{\"mode\":\"off\"}}").path("error").path("code").asText(), "writes are refused");
        assertEquals(stored, RecoveryFixture.strings("SELECT recovery_json FROM accounts WHERE id = " + corrupt).get(0),
                "and the stored config is not overwritten");
    }
}
