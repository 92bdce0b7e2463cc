package dev.detour.core.cluster;

import java.time.Instant;
import java.util.Comparator;

/** G-2: one Detour instance's registry row: who, where, which version, since when, last heartbeat. */
public record RegisteredInstance(String id, String address, String version, Instant startedAt,
        Instant lastSeenAt) {
    /** Oldest first; the id breaks a tie. */
    public static final Comparator<RegisteredInstance> START_ORDER = Comparator
            .comparing(RegisteredInstance::startedAt).thenComparing(RegisteredInstance::id);

    public boolean liveAt(Instant now) {
        return Heartbeat.live(lastSeenAt, now);
    }

    /** The same instance, beating at {@code now}. */
    public RegisteredInstance seenAt(Instant now) {
        return new RegisteredInstance(id, address, version, startedAt, now);
    }
}
