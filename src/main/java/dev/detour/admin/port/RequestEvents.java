package dev.detour.admin.port;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The stored request log: its pages and retention. */
public interface RequestEvents {
    /**
     * Newest first: at most {@code limit} events matching the filter with an id below
     * {@code beforeId} (null: from the newest).
     */
    List<LoggedRequest> page(RequestFilter filter, Long beforeId, int limit);

    Optional<LoggedRequest> find(String requestId);

    /** Deletes at most {@code batchSize} events created before {@code cutoff} in one short transaction; how many went. */
    int deleteOlderThan(Instant cutoff, int batchSize);
}
