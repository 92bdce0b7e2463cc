package dev.detour.gateway;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * In-flight leases per account (S-5): capacity is not health. Acquire is atomic and never
 * exceeds the account's limit; every acquire is paired with exactly one release.
 */
public final class Leases {
    private final Map<Long, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    /** @param max 0 = unlimited */
    public boolean tryAcquire(long accountId, int max) {
        AtomicInteger count = inFlight.computeIfAbsent(accountId, id -> new AtomicInteger());
        while (true) {
            int current = count.get();
            if (max > 0 && current >= max) {
                return false;
            }
            if (count.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    public void release(long accountId) {
        AtomicInteger count = inFlight.get(accountId);
        if (count != null && count.decrementAndGet() < 0) {
            count.set(0);
            throw new IllegalStateException("lease released twice for account " + accountId);
        }
    }

    public int inFlight(long accountId) {
        AtomicInteger count = inFlight.get(accountId);
        return count == null ? 0 : count.get();
    }

    public int total() {
        return inFlight.values().stream().mapToInt(AtomicInteger::get).sum();
    }
}
