package dev.detour.gateway.live;

import java.time.Instant;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * L-2: one request waiting for a lease on one of {@code accounts} (every one was full when it came).
 * It ends once: a lease handed over, its deadline passed, its client gone, or Detour stopping.
 */
public final class Waiter {
    /** How a wait ended. */
    public enum Outcome { GRANTED, TIMED_OUT, CLIENT_GONE, QUEUE_FULL, STOPPING }

    /** @param accountId the account whose lease the waiter now holds ({@code GRANTED} only; else -1) */
    public record Wake(Outcome outcome, long accountId) {
    }

    final String model;
    final Set<Long> accounts;
    final long arrival;
    final Instant deadline;
    private final CompletableFuture<Wake> wake = new CompletableFuture<>();

    Waiter(String model, Set<Long> accounts, long arrival, Instant deadline) {
        this.model = model;
        this.accounts = Set.copyOf(accounts);
        this.arrival = arrival;
        this.deadline = deadline;
    }

    /**
     * Blocks the request's thread until the wait ends: a virtual thread (JDK 21+) unmounts meanwhile,
     * on JDK 17 the Jetty worker thread is parked (no polling either way).
     */
    public Wake await() {
        return wake.join();
    }

    boolean ended() {
        return wake.isDone();
    }

    void grant(long accountId) {
        wake.complete(new Wake(Outcome.GRANTED, accountId));
    }

    void end(Outcome outcome) {
        wake.complete(new Wake(outcome, -1));
    }
}
