package dev.detour.recovery;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * site-wide limits on background probes — at most N started per rolling minute and at most
 * M running at once. Both limits are read on every request so a settings change applies at once.
 * Only the lease holder probes, so this in-memory count is the site-wide count.
 */
public final class ProbeBudget {
    public static final int DEFAULT_PER_MINUTE = 30;
    public static final int DEFAULT_CONCURRENCY = 3;
    private static final Duration WINDOW = Duration.ofMinutes(1);
    private static final Duration RECHECK = Duration.ofSeconds(1);
    private final IntSupplier perMinute;
    private final IntSupplier concurrency;
    private final Deque<Instant> started = new ArrayDeque<>();
    private int running;

    public ProbeBudget(IntSupplier perMinute, IntSupplier concurrency) {
        this.perMinute = perMinute;
        this.concurrency = concurrency;
    }

    public static ProbeBudget defaults() {
        return new ProbeBudget(() -> DEFAULT_PER_MINUTE, () -> DEFAULT_CONCURRENCY);
    }

    /** Takes one probe slot, or refuses when either limit is reached; pair with {@link #release()}. */
    public synchronized boolean tryAcquire(Instant now) {
        while (!started.isEmpty() && !started.peekFirst().isAfter(now.minus(WINDOW))) {
            started.pollFirst();
        }
        if (started.size() >= perMinute.getAsInt() || running >= concurrency.getAsInt()) {
            return false;
        }
        started.addLast(now);
        running++;
        return true;
    }

    /**
     * W-3: waits for a slot (a release wakes the waiter; the per-minute window is looked at again every
     * second), then takes it; pair with {@link #release()}. A batch test queues behind the budget this way
     * instead of being refused, so a batch and the background probes together never pass either limit.
     */
    public synchronized void acquire(Supplier<Instant> now) throws InterruptedException {
        while (!tryAcquire(now.get())) {
            wait(RECHECK.toMillis());
        }
    }

    public synchronized void release() {
        running = Math.max(0, running - 1);
        notifyAll();
    }

    public synchronized int running() {
        return running;
    }

    /** Probes started in the minute before {@code now}. */
    public synchronized int startedInLastMinute(Instant now) {
        Instant from = now.minus(WINDOW);
        return (int) started.stream().filter(t -> t.isAfter(from)).count();
    }
}
