package dev.detour.testkit;

import dev.detour.fake.FakeUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Shared IT set-up: a started {@link Gateway} and two {@link FakeUpstream}s, all closed after each test. */
public abstract class TwoUpstreamsCase {
    protected Gateway gw;
    protected FakeUpstream a;
    protected FakeUpstream b;

    @BeforeEach
    void startGatewayAndUpstreams() {
        gw = Gateway.start();
        a = FakeUpstream.start();
        b = FakeUpstream.start();
    }

    @AfterEach
    void stopGatewayAndUpstreams() {
        gw.close();
        a.close();
        b.close();
    }
}
