package dev.detour.gateway;

/** Where request events and account usage touches go: never on the request's critical path. */
public interface EventSink {
    void emit(RequestEvent event);

    /** Counters and last-used time, aggregated and written in batches. */
    void touchAccount(long accountId, boolean success, java.time.Instant at, String modelKey);
}
