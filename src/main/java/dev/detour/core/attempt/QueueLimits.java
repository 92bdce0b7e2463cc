package dev.detour.core.attempt;

import java.time.Duration;
import java.time.Instant;

/**
 * L-2: the wait queue's bounds, and whether a request that found every candidate full waits or is
 * refused. A request waits at most {@code maxWait} in its model's FIFO queue, which holds at most
 * {@code maxLength} requests; {@code maxWait} zero (or {@code maxLength} zero) is no queue: S-5's
 * immediate 503.
 *
 * @param maxWait   {@code queue_wait_seconds}
 * @param maxLength {@code queue_max_length}, per model
 */
public record QueueLimits(Duration maxWait, int maxLength) {
    /** No queue: every full pool is answered at once (S-5). */
    public static final QueueLimits NONE = new QueueLimits(Duration.ZERO, 0);

    /** What a request that found every candidate full does next. */
    public enum Admission {
        /** Join the model's queue. */
        WAIT,
        /** No queue is configured: S-5's 503 at once. */
        OFF,
        /** The model's queue is full: the 503 at once, no wait. */
        FULL
    }

    public QueueLimits {
        if (maxWait == null || maxWait.isNegative() || maxLength < 0) {
            throw new IllegalArgumentException("queue bounds must not be negative");
        }
    }

    public static QueueLimits of(long waitSeconds, long maxLength) {
        return new QueueLimits(Duration.ofSeconds(waitSeconds), (int) Math.min(Integer.MAX_VALUE, maxLength));
    }

    /** {@code waiting}: how many requests already wait for the same model. */
    public Admission admit(int waiting) {
        if (maxWait.isZero() || maxLength == 0) {
            return Admission.OFF;
        }
        return waiting >= maxLength ? Admission.FULL : Admission.WAIT;
    }

    /** When a request that starts waiting at {@code now} gives up. */
    public Instant deadline(Instant now) {
        return now.plus(maxWait);
    }
}
