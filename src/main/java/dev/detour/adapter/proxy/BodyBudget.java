package dev.detour.adapter.proxy;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * one budget for the request body bytes buffered by all requests at once. A body reserves
 * room before each buffer it allocates and gives all of it back when its request ends, so a flood
 * of large or stalled bodies is refused (503, retryable) instead of filling the heap.
 */
public final class BodyBudget {
    private final long capacity;
    private final AtomicLong used = new AtomicLong();
    private final LongAdder exhausted = new LongAdder();

    public BodyBudget(long capacity) {
        this.capacity = capacity;
    }

    /** What one request holds; {@link #close()} (in a finally) returns it to the budget. */
    public final class Hold implements AutoCloseable {
        private long held;

        /** Reserves {@code bytes} more, or returns false (counted) when that would pass the budget. */
        boolean grow(long bytes) {
            long now = used.addAndGet(bytes);
            if (now > capacity) {
                used.addAndGet(-bytes);
                exhausted.increment();
                return false;
            }
            held += bytes;
            return true;
        }

        @Override
        public void close() {
            used.addAndGet(-held);
            held = 0;
        }
    }

    public Hold hold() {
        return new Hold();
    }

    public long capacity() {
        return capacity;
    }

    /** Bytes reserved by requests in progress now. */
    public long used() {
        return used.get();
    }

    /** How many bodies were refused because the budget was full. */
    public long exhaustedCount() {
        return exhausted.sum();
    }
}
