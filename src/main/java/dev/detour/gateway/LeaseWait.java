package dev.detour.gateway;

import dev.detour.core.attempt.QueueLimits;
import dev.detour.gateway.live.WaitQueue;
import dev.detour.gateway.live.Waiter;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.ResponseSink;
import java.time.Instant;
import java.util.Map;

/**
 * L-2, for one request: the waits in its model's queue while every candidate is full, all within one bound
 * (the deadline is set by the first wait), their time added up for the event ({@code queued_ms}).
 */
final class LeaseWait {
    private final WaitQueue queue;
    private final QueueLimits bounds;
    private Instant deadline;

    LeaseWait(WaitQueue queue) {
        this.queue = queue;
        this.bounds = queue.limits();
    }

    /** False when the queue is off: a full pool is S-5's immediate 503. */
    boolean allowed() {
        return bounds.admit(0) != QueueLimits.Admission.OFF;
    }

    /** Waits for one of the {@code full} accounts to hand a lease over, the client to leave, or the bound. */
    Waiter.Wake await(ClientCall call, Map<Long, Integer> full, Trace trace, ResponseSink sink) {
        deadline = deadline == null ? queue.deadline(bounds) : deadline;
        long waitStarted = System.nanoTime();
        Waiter.Wake wake = queue.await(call.peek().model(), full, bounds, deadline, sink);
        trace.queuedMs = (trace.queuedMs == null ? 0 : trace.queuedMs)
                + (int) ((System.nanoTime() - waitStarted) / 1_000_000);
        return wake;
    }
}
