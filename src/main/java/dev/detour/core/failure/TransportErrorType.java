package dev.detour.core.failure;

/**
 * Why no (complete) upstream answer arrived. Kept apart because they mean different things:
 * refused / unknown host say the upstream is unreachable (also feeds the group halt, F-7, S-9),
 * a reset is an ordinary transient switch, a timeout names the ceiling that fired (P-4).
 */
public enum TransportErrorType {
    CONNECT_REFUSED,
    UNKNOWN_HOST,
    CONNECT_TIMEOUT,
    READ_TIMEOUT,
    CONNECTION_RESET,
    TLS,
    /** The upstream closed the connection before the response was complete. */
    CLOSED_EARLY,
    OTHER;

    public boolean unreachable() {
        return this == CONNECT_REFUSED || this == UNKNOWN_HOST;
    }
}
