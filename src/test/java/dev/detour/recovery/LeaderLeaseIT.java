package dev.detour.recovery;

import static dev.detour.recovery.RecoveryFixture.MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.App;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestApp;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** R-5 / O-4: two Detour instances on one database — exactly one runs the scheduler. */
class LeaderLeaseIT {
    private Gateway gw;
    private App second;
    private FakeUpstream upstream;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        second = TestApp.start(gw.clock);
        upstream = FakeUpstream.start();
        gw.app.recovery().stopLoop();
        second.recovery().stopLoop();
    }

    @AfterEach
    void stop() {
        second.close();
        gw.close();
        upstream.close();
    }

    @Test
    void onlyTheLeaseHolderProbesAndADeadHolderIsTakenOverAfterExpiry() {
        long id = gw.account("a", upstream, MAPS, "{\"recovery\":{\"mode\":\"healthcheck\",\"probe_interval_minutes\":1}}");
        upstream.handler(r -> dev.detour.fake.Reply.openAiError(500, "still down", "server_error"));
        RecoveryFixture.setStatus(id, "error");
        gw.app.snapshot().reload();
        second.snapshot().reload();

        RecoveryScheduler first = gw.app.recovery();
        RecoveryScheduler other = second.recovery();
        assertTrue(first.tick(gw.clock.instant()).leader());
        RecoveryScheduler.TickReport follower = other.tick(gw.clock.instant());
        assertFalse(follower.leader(), "the second instance is not the leader");
        assertEquals(0, follower.probesStarted());
        gw.events(1);
        assertEquals(1, upstream.requestCount(), "exactly one instance probed");

        gw.clock.advance(Duration.ofSeconds(30));
        assertTrue(first.tick(gw.clock.instant()).leader(), "the holder renews every tick");
        assertFalse(other.tick(gw.clock.instant()).leader());

        first.stopLoop(); // the holder dies without releasing its lease
        gw.clock.advance(Duration.ofSeconds(30));
        assertFalse(other.tick(gw.clock.instant()).leader(), "the lease (2 ticks, 60 s) has not expired yet");
        gw.clock.advance(Duration.ofSeconds(31));
        RecoveryScheduler.TickReport takeover = other.tick(gw.clock.instant());
        assertTrue(takeover.leader(), "taken over after expiry");
        assertEquals(1, takeover.probesStarted(), "the new leader probes");
        Gateway.await(() -> upstream.requestCount() == 2, "the new leader's probe reached the upstream");
        assertFalse(first.tick(gw.clock.instant()).leader(), "the old holder, back, is now a follower");
    }

    @Test
    void aGracefulStopReleasesTheLeaseAtOnce() {
        RecoveryScheduler first = gw.app.recovery();
        assertTrue(first.tick(gw.clock.instant()).leader());
        assertFalse(second.recovery().tick(gw.clock.instant()).leader());
        first.close();
        assertTrue(second.recovery().tick(gw.clock.instant()).leader(), "no wait for expiry after a release");
    }
}
