package dev.detour.testkit;

import java.time.Duration;

/**
 * What a {@link TcpFaultProxy} does to one connection (D-6). Positions count the bytes of the answer
 * (upstream → client) on that connection: {@code at} bytes from its first byte, or — for the
 * {@code …MidBody} factories — from the end of the first header block ({@code \r\n\r\n}), so a row can
 * say "after the headers and 10 body bytes" without knowing how long the headers are.
 *
 * @param kind     what happens
 * @param at       the answer byte at which a positional fault fires (stall, reset, half-open, truncate)
 * @param fromBody {@code at} counts from the end of the first header block instead of the first byte
 * @param delay    latency per chunk, or the drip interval
 * @param bytes    drip: how many answer bytes go per interval
 */
public record Fault(Kind kind, long at, boolean fromBody, Duration delay, int bytes) {
    public enum Kind {
        /** Bytes pass through unchanged. */
        NONE,
        /** Every chunk, in each direction, waits {@code delay} before it is forwarded. */
        LATENCY,
        /** The answer stops at {@code at} until {@link TcpFaultProxy#release()} (or the proxy closes). */
        STALL,
        /** At {@code at}, an RST to the client (SO_LINGER 0, then close): "connection reset by peer". */
        RESET,
        /**
         * The peer vanished without a word: from {@code at} nothing is forwarded either way and the client's
         * connection is never closed (no FIN, no RST) until the proxy closes. {@link #halfOpen()} is dead from
         * the accept on: the upstream is never even dialled.
         */
        HALF_OPEN,
        /** The answer goes {@code bytes} at a time, one piece per {@code delay}. */
        DRIP,
        /** At {@code at}, a clean close (FIN) of the client's connection: the answer is cut short. */
        TRUNCATE
    }

    public static final Fault NONE = new Fault(Kind.NONE, 0, false, Duration.ZERO, 0);

    public static Fault latency(Duration perChunk) {
        return new Fault(Kind.LATENCY, 0, false, perChunk, 0);
    }

    /** The request reaches the upstream; its answer is held before the first byte (the status line). */
    public static Fault stallBeforeHeaders() {
        return new Fault(Kind.STALL, 0, false, Duration.ZERO, 0);
    }

    /** The headers and {@code bodyBytes} of the body pass; the rest is held. */
    public static Fault stallMidBody(long bodyBytes) {
        return new Fault(Kind.STALL, bodyBytes, true, Duration.ZERO, 0);
    }

    /** An RST instead of the answer's first byte (the request did reach the upstream). */
    public static Fault reset() {
        return new Fault(Kind.RESET, 0, false, Duration.ZERO, 0);
    }

    public static Fault resetMidBody(long bodyBytes) {
        return new Fault(Kind.RESET, bodyBytes, true, Duration.ZERO, 0);
    }

    /** Accepted, then silence forever: nothing forwarded, nothing answered, never closed. */
    public static Fault halfOpen() {
        return new Fault(Kind.HALF_OPEN, -1, false, Duration.ZERO, 0);
    }

    public static Fault halfOpenMidBody(long bodyBytes) {
        return new Fault(Kind.HALF_OPEN, bodyBytes, true, Duration.ZERO, 0);
    }

    public static Fault drip(int bytes, Duration interval) {
        if (bytes < 1) {
            throw new IllegalArgumentException("drip needs at least one byte per interval");
        }
        return new Fault(Kind.DRIP, 0, false, interval, bytes);
    }

    /** The first {@code answerBytes} of the answer (status line and headers included), then FIN. */
    public static Fault truncateAfter(long answerBytes) {
        return new Fault(Kind.TRUNCATE, answerBytes, false, Duration.ZERO, 0);
    }

    public static Fault truncateMidBody(long bodyBytes) {
        return new Fault(Kind.TRUNCATE, bodyBytes, true, Duration.ZERO, 0);
    }

    /** Whether this fault fires at a position of the answer. */
    boolean positional() {
        return (kind == Kind.STALL || kind == Kind.RESET || kind == Kind.HALF_OPEN || kind == Kind.TRUNCATE)
                && at >= 0;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case NONE -> "none";
            case LATENCY -> "latency " + delay.toMillis() + " ms";
            case DRIP -> "drip " + bytes + " B / " + delay.toMillis() + " ms";
            default -> kind.name().toLowerCase(java.util.Locale.ROOT) + (at < 0 ? " at accept"
                    : " at " + (fromBody ? "body byte " : "answer byte ") + at);
        };
    }
}
