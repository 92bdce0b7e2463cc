package dev.detour.fake;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many requests a {@link FakeUpstream} is answering at once, and the most it ever was (S-5
 * tests: the upstream counts, not the gateway). A request counts from its arrival until its last
 * byte starts on the wire (or its connection is cut), so a client that has the whole answer can
 * never see the request still counted.
 */
public final class ConcurrencyGauge {
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicInteger highWater = new AtomicInteger();

    /** Counts one request in; the returned action counts it out, once, however often it runs. */
    Runnable enter() {
        highWater.accumulateAndGet(active.incrementAndGet(), Math::max);
        AtomicBoolean left = new AtomicBoolean();
        return () -> {
            if (left.compareAndSet(false, true)) {
                active.decrementAndGet();
            }
        };
    }

    /** Requests being answered right now (arrived, last byte not yet sent). */
    public int active() {
        return active.get();
    }

    /** The most requests answered at once since the start or the last reset. */
    public int highWater() {
        return highWater.get();
    }

    public void resetHighWater() {
        highWater.set(active.get());
    }
}
