package dev.detour.agents;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.detour.testkit.AgentProcess;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * Shared set-up of the real-client ITs: one Detour per class (starting one per test would dominate the
 * run time), fresh fake upstreams per test, and a model name per test so one test's accounts and
 * cooldowns never serve another's requests.
 */
abstract class AgentCase {
    protected static Gateway gw;
    private static final AtomicInteger MODELS = new AtomicInteger();
    private final List<FakeUpstream> upstreams = new ArrayList<>();

    @BeforeAll
    static void startDetour() {
        if (AgentProcess.installed()) {
            gw = Gateway.start();
        }
    }

    /** Per test, so a machine without the clients shows every test as skipped, with the reason. */
    @BeforeEach
    void assumeClientsInstalled() {
        AgentProcess.assumeInstalled(getClass().getSimpleName());
    }

    @AfterAll
    static void stopDetour() {
        if (gw != null) {
            gw.close();
        }
    }

    @AfterEach
    void stopUpstreams() {
        upstreams.forEach(FakeUpstream::close);
    }

    protected FakeUpstream upstream() {
        FakeUpstream fake = FakeUpstream.start();
        upstreams.add(fake);
        return fake;
    }

    /** A model name no other test maps, under a prefix the client knows (e.g. claude-sonnet-4-5-). */
    protected static String uniqueModel(String prefix) {
        return prefix + "t" + MODELS.incrementAndGet();
    }

    /** An account on {@code fake} serving exactly {@code model}, tried in {@code priority} order (lower first). */
    protected static long account(String platform, FakeUpstream fake, String model, int priority) {
        return gw.account("acct-" + model + "-p" + priority + "-" + fake.port(), fake,
                "[{\"from\":\"" + model + "\",\"to\":\"" + model + "\"}]",
                "{\"platform\":\"" + platform + "\",\"priority\":" + priority + "}");
    }

    /** Requests Detour logged while {@code client} ran: each client request is one event. */
    protected static long requestsReachingDetour(Runnable client) {
        Gateway.await(() -> gw.app.events().depth() == 0, "event queue drained before");
        long before = gw.app.events().written();
        client.run();
        Gateway.await(() -> gw.app.events().depth() == 0 && gw.app.events().written() > before,
                "the client's requests logged");
        return gw.app.events().written() - before;
    }

    /** A stream cut mid-way: each run fails or retries, and none prints the cut text as a finished answer. */
    protected static void assertNoRunTookTheCutAnswerAsComplete(String cutText, AgentProcess.Run... runs) {
        for (AgentProcess.Run run : runs) {
            assertFalse(run.timedOut(), run.summary());
            assertFalse(run.exit() == 0 && run.stdout().contains(cutText),
                    "the cut answer was printed as if complete: " + run.summary());
        }
    }

}
