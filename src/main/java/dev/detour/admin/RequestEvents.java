package dev.detour.admin;

import java.time.Instant;

/** The stored request log, as retention needs it. */
public interface RequestEvents {
    /** Deletes at most {@code batchSize} events created before {@code cutoff} in one short transaction; how many went. */
    int deleteOlderThan(Instant cutoff, int batchSize);
}
