package dev.detour.alerts;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * W-1: the alert thread. Every second it looks at the pool ({@link PoolWatch}) and runs the
 * dispatcher's round; everything slow (HTTP, SMTP, the delivery log) happens here, never on a
 * request. Tests stop the loop and call {@link #tick(Instant)} with their own clock's time.
 */
public final class AlertTicker implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AlertTicker.class);
    public static final Duration EVERY = Duration.ofSeconds(1);
    private final PoolWatch watch;
    private final AlertDispatcher dispatcher;
    private final Clock clock;
    private ScheduledExecutorService loop;

    public AlertTicker(PoolWatch watch, AlertDispatcher dispatcher, Clock clock) {
        this.watch = watch;
        this.dispatcher = dispatcher;
        this.clock = clock;
    }

    public synchronized void start() {
        if (loop != null) {
            return;
        }
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "detour-alerts");
            t.setDaemon(true);
            return t;
        });
        loop.scheduleWithFixedDelay(() -> {
            try {
                tick(clock.instant());
            } catch (RuntimeException e) {
                log.warn("alert round failed: {}", e.toString());
            }
        }, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One look at the pool and one dispatcher round at {@code now}. */
    public void tick(Instant now) {
        watch.observe(now);
        dispatcher.tick(now);
    }

    public AlertDispatcher dispatcher() {
        return dispatcher;
    }

    public synchronized void stopLoop() {
        if (loop != null) {
            loop.shutdownNow();
            try {
                loop.awaitTermination(15, TimeUnit.SECONDS); // a send under way ends within its timeouts
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            loop = null;
        }
    }

    @Override
    public void close() {
        stopLoop();
    }
}
