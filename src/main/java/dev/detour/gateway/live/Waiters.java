package dev.detour.gateway.live;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * L-2: the waiting requests, one FIFO queue per model. Not thread-safe: {@link Leases} guards it with
 * the lock under which a given-back lease is handed over or counted down.
 */
final class Waiters {
    private final Map<String, ArrayDeque<Waiter>> byModel = new HashMap<>();
    private int total;
    private long arrivals;

    long nextArrival() {
        return arrivals++;
    }

    int waitingFor(String model) {
        ArrayDeque<Waiter> queue = byModel.get(model);
        return queue == null ? 0 : queue.size();
    }

    int total() {
        return total;
    }

    void add(Waiter waiter) {
        byModel.computeIfAbsent(waiter.model, m -> new ArrayDeque<>()).addLast(waiter);
        total++;
    }

    /** False when the waiter is no longer queued (it was handed a lease or ended already). */
    boolean remove(Waiter waiter) {
        ArrayDeque<Waiter> queue = byModel.get(waiter.model);
        if (queue == null || !queue.remove(waiter)) {
            return false;
        }
        dropIfEmpty(waiter.model, queue);
        total--;
        return true;
    }

    /**
     * The waiter a lease of {@code accountId} goes to, taken off its queue: in each model's queue the first
     * (in arrival order) that may use the account, and of those the one that came first. Only that one is
     * woken: no herd.
     */
    Waiter takeFor(long accountId) {
        Waiter chosen = null;
        for (ArrayDeque<Waiter> queue : byModel.values()) {
            for (Waiter w : queue) {
                if (w.accounts.contains(accountId)) {
                    if (chosen == null || w.arrival < chosen.arrival) {
                        chosen = w;
                    }
                    break;
                }
            }
        }
        if (chosen != null) {
            remove(chosen);
        }
        return chosen;
    }

    /** Every waiter, the first to come first. */
    List<Waiter> inArrivalOrder() {
        List<Waiter> all = new ArrayList<>(total);
        byModel.values().forEach(all::addAll);
        all.sort(Comparator.comparingLong(w -> w.arrival));
        return all;
    }

    /** Takes off every waiter whose deadline is not after {@code now}. */
    List<Waiter> takeDue(Instant now) {
        List<Waiter> due = new ArrayList<>();
        for (Iterator<Map.Entry<String, ArrayDeque<Waiter>>> models = byModel.entrySet().iterator(); models.hasNext();) {
            ArrayDeque<Waiter> queue = models.next().getValue();
            queue.removeIf(w -> !w.deadline.isAfter(now) && due.add(w));
            if (queue.isEmpty()) {
                models.remove();
            }
        }
        total -= due.size();
        return due;
    }

    /** Takes off every waiter (Detour stops). */
    List<Waiter> takeAll() {
        List<Waiter> all = new ArrayList<>();
        byModel.values().forEach(all::addAll);
        byModel.clear();
        total = 0;
        return all;
    }

    private void dropIfEmpty(String model, ArrayDeque<Waiter> queue) {
        if (queue.isEmpty()) {
            byModel.remove(model);
        }
    }
}
