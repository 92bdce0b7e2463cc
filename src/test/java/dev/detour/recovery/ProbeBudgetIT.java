package dev.detour.recovery;

import static dev.detour.recovery.RecoveryFixture.MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** the probe budget caps probes per minute and at once, under a pool of 100 failing accounts. */
class ProbeBudgetIT {
    private static final String HEALTHCHECK = "{\"recovery\":{\"mode\":\"healthcheck\",\"probe_interval_minutes\":1}}";
    private Gateway gw;
    private FakeUpstream upstream;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        gw.app.recovery().stopLoop();
        upstream = FakeUpstream.start();
        upstream.handler(r -> Reply.openAiError(500, "still down", "server_error"));
        for (int i = 0; i < 100; i++) {
            gw.account("acc-" + i, upstream, MAPS, HEALTHCHECK);
        }
        RecoveryFixture.sql("UPDATE accounts SET status = 'error'");
        gw.app.snapshot().reload();
    }

    @AfterEach
    void stop() {
        gw.close();
        upstream.close();
    }

    @Test
    void atMostThirtyProbesStartInAnyMinute() {
        RecoveryScheduler scheduler = RecoveryFixture.scheduler(gw, "budget-test",
                new ProbeBudget(() -> 30, () -> 100), Runnable::run);
        RecoveryScheduler.TickReport first = scheduler.tick(gw.clock.instant());
        assertEquals(100, first.candidates());
        assertEquals(30, first.probesStarted());
        assertEquals(70, first.probesDeferred());
        assertEquals(30, upstream.requestCount());

        gw.clock.advance(Duration.ofSeconds(30));
        assertEquals(0, scheduler.tick(gw.clock.instant()).probesStarted(), "the minute's budget is spent");

        gw.clock.advance(Duration.ofSeconds(31));
        assertEquals(30, scheduler.tick(gw.clock.instant()).probesStarted(), "a new minute, a new budget");
        assertEquals(60, upstream.requestCount());
    }

    @Test
    void atMostThreeProbesRunAtOnce() {
        List<Runnable> queued = new ArrayList<>();
        RecoveryScheduler scheduler = RecoveryFixture.scheduler(gw, "concurrency-test", ProbeBudget.defaults(),
                queued::add);
        assertEquals(3, scheduler.tick(gw.clock.instant()).probesStarted());
        assertEquals(3, scheduler.budget().running());
        assertEquals(0, scheduler.tick(gw.clock.instant().plusSeconds(30)).probesStarted(), "three still running");
        queued.forEach(Runnable::run);
        assertEquals(0, scheduler.budget().running());
        assertEquals(3, scheduler.tick(gw.clock.instant().plusSeconds(60)).probesStarted());
        assertEquals(3, upstream.requestCount(), "the probes run on their own executor, never in the tick");
    }
}
