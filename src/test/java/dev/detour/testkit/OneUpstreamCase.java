package dev.detour.testkit;

import dev.detour.fake.FakeUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Shared IT set-up: a started {@link Gateway} and one {@link FakeUpstream}, both closed after each test. */
public abstract class OneUpstreamCase {
    protected Gateway gw;
    protected FakeUpstream upstream;

    @BeforeEach
    void startGatewayAndUpstream() {
        gw = Gateway.start();
        upstream = FakeUpstream.start();
    }

    @AfterEach
    void stopGatewayAndUpstream() {
        gw.close();
        upstream.close();
    }
}
