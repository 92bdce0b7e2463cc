package dev.detour.gateway.live;

import dev.detour.core.attempt.QueueLimits;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * In-flight leases per account (S-5): capacity is not health. Acquire is atomic and never
 * exceeds the account's limit; every acquire is paired with exactly one release.
 *
 * <p>L-2: a lease given back while requests wait for its account is handed straight to the first of
 * them (the count stays), so a newcomer never overtakes a waiter and one release wakes one waiter.
 */
public final class Leases {
    private final Map<Long, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    /**
     * L-2: a release hands over or counts down under this lock, and a request joins the queue under it
     * after one last try: a lease given back between a request's "all full" and its joining is not lost.
     */
    private final ReentrantLock handover = new ReentrantLock();
    private final Waiters waiters = new Waiters();
    private volatile int waiting;

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
        handover.lock();
        try {
            Waiter next = waiters.takeFor(accountId);
            if (next != null) {
                waiting = waiters.total();
                next.grant(accountId); // L-2: the lease changes hands; the in-flight count is unchanged
                return;
            }
            AtomicInteger count = inFlight.get(accountId);
            if (count != null && count.decrementAndGet() < 0) {
                count.set(0);
                throw new IllegalStateException("lease released twice for account " + accountId);
            }
        } finally {
            handover.unlock();
        }
    }

    /**
     * L-2: a request that found every one of {@code shares}' accounts full joins {@code model}'s queue, or
     * is refused at once when that queue is full. One more try for a lease comes first, under the lock.
     *
     * @param shares   this instance's in-flight share per account (S-5)
     * @param deadline when the wait ends at the latest
     * @return the waiter; already ended when it got a lease on the last try or the queue was full
     */
    public Waiter queue(String model, Map<Long, Integer> shares, QueueLimits bounds, Instant deadline) {
        handover.lock();
        try {
            Waiter waiter = new Waiter(model, shares.keySet(), waiters.nextArrival(), deadline);
            for (Map.Entry<Long, Integer> share : shares.entrySet()) {
                if (tryAcquire(share.getKey(), share.getValue())) {
                    waiter.grant(share.getKey());
                    return waiter;
                }
            }
            if (bounds.admit(waiters.waitingFor(model)) == QueueLimits.Admission.WAIT) {
                waiters.add(waiter);
                waiting = waiters.total();
            } else {
                waiter.end(Waiter.Outcome.QUEUE_FULL);
            }
            return waiter;
        } finally {
            handover.unlock();
        }
    }

    /**
     * Ends a wait early ({@code CLIENT_GONE}); nothing happens when it ended already, e.g. it was handed a
     * lease a moment before, which it then holds and must give back.
     */
    public void leave(Waiter waiter, Waiter.Outcome why) {
        handover.lock();
        try {
            if (waiters.remove(waiter)) {
                waiting = waiters.total();
                waiter.end(why);
            }
        } finally {
            handover.unlock();
        }
    }

    /**
     * L-2: capacity that appeared without a release (a raised {@code max_in_flight}, seen at a reload) goes to
     * the waiters in arrival order, as given-back leases would.
     *
     * @param shareOf this instance's share of an account's limit now (S-5); null for an account that is gone
     */
    public void handOutFree(Function<Long, Integer> shareOf) {
        handover.lock();
        try {
            for (Waiter waiter : waiters.inArrivalOrder()) {
                for (long account : waiter.accounts) {
                    Integer share = shareOf.apply(account);
                    if (share != null && tryAcquire(account, share)) {
                        waiters.remove(waiter);
                        waiter.grant(account);
                        break;
                    }
                }
            }
            waiting = waiters.total();
        } finally {
            handover.unlock();
        }
    }

    /** L-2: every waiter whose deadline is not after {@code now} stops waiting ({@code TIMED_OUT}). */
    public void expireDue(Instant now) {
        endAll(waiters -> waiters.takeDue(now), Waiter.Outcome.TIMED_OUT);
    }

    /** D-3: Detour stops: every waiter is let go at once. */
    public void stopWaiting() {
        endAll(Waiters::takeAll, Waiter.Outcome.STOPPING);
    }

    private void endAll(Function<Waiters, List<Waiter>> take, Waiter.Outcome why) {
        handover.lock();
        try {
            take.apply(waiters).forEach(w -> w.end(why));
            waiting = waiters.total();
        } finally {
            handover.unlock();
        }
    }

    /** L-2: requests waiting in every model's queue now. */
    public int waiting() {
        return waiting;
    }

    public int inFlight(long accountId) {
        AtomicInteger count = inFlight.get(accountId);
        return count == null ? 0 : count.get();
    }

    public int total() {
        return inFlight.values().stream().mapToInt(AtomicInteger::get).sum();
    }
}
