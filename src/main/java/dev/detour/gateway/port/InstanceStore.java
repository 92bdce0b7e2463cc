package dev.detour.gateway.port;

import dev.detour.core.cluster.RegisteredInstance;
import java.time.Instant;
import java.util.List;

/** G-2: where the instances' registry rows live (MariaDB, shared by every instance). */
public interface InstanceStore {
    /** Writes this instance's row: inserted on the first beat, its last-seen time (and address) refreshed after. */
    void beat(RegisteredInstance self);

    /** Every registered instance, live or not. */
    List<RegisteredInstance> all();

    /** An orderly stop: the row goes, so the others recount without waiting for the bound. */
    void remove(String id);

    /** Deletes the rows last seen before {@code before}. */
    void forgetUnseenSince(Instant before);
}
