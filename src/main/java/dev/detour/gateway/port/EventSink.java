package dev.detour.gateway.port;

/** Where request events and account usage touches go: never on the request's critical path. */
public interface EventSink {
    void emit(RequestEvent event);

    /**
     * D-5: the request is under way; {@code ifInterrupted} is its event should the process die before it
     * ends (a later call for the same request replaces it; {@link #emit} ends it). A sink that does not
     * survive the process ignores it.
     */
    default void started(RequestEvent ifInterrupted) {
    }

    /** Counters and last-used time, aggregated and written in batches. */
    void touchAccount(long accountId, boolean success, java.time.Instant at, String modelKey);
}
