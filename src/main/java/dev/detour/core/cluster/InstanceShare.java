package dev.detour.core.cluster;

import java.util.List;

/**
 * S-5 / G-2: this instance's part of an account's {@code max_in_flight} when {@code count}
 * instances share the pool and this one has {@code rank} (0-based) among them. The remainder of
 * the division goes to the lowest ranks, so the parts add up to the limit exactly (3 over 2
 * instances: 2 + 1, never 1 + 1 or 2 + 2) and no part is above it. When the limit is below the
 * instance count every instance still keeps 1 (a share of 0 would read as unlimited): the sum is
 * then the instance count. 0 stays unlimited.
 */
public record InstanceShare(int count, int rank) {
    public static final InstanceShare ALONE = new InstanceShare(1, 0);

    public InstanceShare {
        if (count < 1 || rank < 0 || rank >= count) {
            throw new IllegalArgumentException("rank " + rank + " of " + count + " instances");
        }
    }

    /** As many instances as {@code DETOUR_INSTANCES} says, this one taking the rounded-up part (rank 0). */
    public static InstanceShare pinned(int count) {
        return new InstanceShare(Math.max(1, count), 0);
    }

    /**
     * The share among the live instances, ranked in start order (an instance joining takes the last
     * rank and leaves the others' ranks as they were). This instance counts even when its own
     * row is missing from {@code live} (its heartbeat could not be written): never a count of 0.
     */
    public static InstanceShare among(List<RegisteredInstance> live, String selfId) {
        List<RegisteredInstance> ordered = live.stream().sorted(RegisteredInstance.START_ORDER).toList();
        for (int i = 0; i < ordered.size(); i++) {
            if (ordered.get(i).id().equals(selfId)) {
                return new InstanceShare(ordered.size(), i);
            }
        }
        return new InstanceShare(ordered.size() + 1, ordered.size());
    }

    public int of(int maxInFlight) {
        if (maxInFlight <= 0) {
            return maxInFlight;
        }
        int part = maxInFlight / count + (rank < maxInFlight % count ? 1 : 0);
        return Math.max(1, part);
    }
}
