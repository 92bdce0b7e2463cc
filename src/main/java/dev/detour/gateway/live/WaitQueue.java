package dev.detour.gateway.live;

import dev.detour.core.attempt.QueueLimits;
import dev.detour.gateway.port.ResponseSink;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * L-2: where a request whose every candidate is at its {@code max_in_flight} waits for a lease, within
 * the site's {@code queue_wait_seconds} and {@code queue_max_length}. The wait ends when {@link Leases}
 * hands it a lease, when its client goes away, or at its deadline on the app's clock: a timer fires at the
 * deadline and ends the waits the clock says are due ({@link #expireDue()}, which tests call after moving
 * their clock). No thread sleeps or polls.
 */
public final class WaitQueue implements AutoCloseable {
    private final Leases leases;
    private final Supplier<QueueLimits> limits;
    private final Clock clock;
    private final ScheduledThreadPoolExecutor timer;
    private final LongAdder waits = new LongAdder();
    private final LongAdder waitedMs = new LongAdder();

    /**
     * What the dashboard shows: requests waiting now and the waits this instance has seen since it started
     * (how many, and their average in milliseconds, whether they ended with a lease or not).
     */
    public record Figures(int waiting, long waits, long averageWaitMs) {
    }

    public WaitQueue(Leases leases, Supplier<QueueLimits> limits, Clock clock) {
        this.leases = Objects.requireNonNull(leases);
        this.limits = Objects.requireNonNull(limits);
        this.clock = Objects.requireNonNull(clock);
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "detour-queue-timer");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true); // a wait that ended early leaves no timer behind
    }

    /** A queue that is always off (S-5's immediate 503), for gateways that have none. */
    public static WaitQueue none(Leases leases, Clock clock) {
        return new WaitQueue(leases, () -> QueueLimits.NONE, clock);
    }

    /** The bounds in force now (settings apply to the next request). */
    public QueueLimits limits() {
        return limits.get();
    }

    /** When a request that starts waiting now under {@code bounds} gives up. */
    public Instant deadline(QueueLimits bounds) {
        return bounds.deadline(clock.instant());
    }

    /**
     * Waits for a lease on one of {@code shares}' accounts, blocking the request's thread (see
     * {@link Waiter#await()}).
     */
    public Waiter.Wake await(String model, Map<Long, Integer> shares, QueueLimits bounds, Instant deadline,
            ResponseSink client) {
        Waiter waiter = leases.queue(model, shares, bounds, deadline);
        if (waiter.ended()) {
            return waiter.await();
        }
        ScheduledFuture<?> expiry;
        try {
            long delay = Math.max(0, Duration.between(clock.instant(), deadline).toMillis());
            expiry = timer.schedule(this::expireDue, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            leases.leave(waiter, Waiter.Outcome.STOPPING); // joined while Detour stops: no wait
            return waiter.await();
        }
        Runnable stopWatching = client.watchGone(() -> leases.leave(waiter, Waiter.Outcome.CLIENT_GONE));
        long started = System.nanoTime();
        try {
            return waiter.await();
        } finally {
            stopWatching.run();
            expiry.cancel(false);
            waits.increment();
            waitedMs.add((System.nanoTime() - started) / 1_000_000);
        }
    }

    /** Ends every wait whose deadline the app's clock has reached. */
    public void expireDue() {
        leases.expireDue(clock.instant());
    }

    /**
     * After a reload: capacity the pool gained without a release (a raised {@code max_in_flight}) goes to
     * the waiters, so they do not wait out their bound while newcomers take it.
     */
    public void recheck(Function<Long, Integer> shareOf) {
        if (leases.waiting() > 0) {
            leases.handOutFree(shareOf);
        }
    }

    /** Requests waiting now, every model together. */
    public int waiting() {
        return leases.waiting();
    }

    public Figures figures() {
        long count = waits.sum();
        return new Figures(leases.waiting(), count, count == 0 ? 0 : waitedMs.sum() / count);
    }

    /** D-3: lets every waiter go (each answers its 503) and stops the timer. */
    @Override
    public void close() {
        leases.stopWaiting();
        timer.shutdownNow();
    }
}
