package dev.detour.gateway.port;

import dev.detour.core.keys.LimitKind;
import java.util.List;

/**
 * L-1 / L-4: the per-key counts every instance adds to (requests, tokens and spend per bucket of their
 * window), so a limit is counted once for the cluster. Written and read once a second, never per request.
 */
public interface KeyLimitStore {
    /** One bucket of one key's count; an amount added by {@link #add}, or the cluster's total from {@link #all}. */
    record Count(long keyId, LimitKind kind, long bucket, long amount) {
    }

    /** No shared table: each instance counts alone (tests of the bare gateway). */
    KeyLimitStore NONE = new KeyLimitStore() {
        @Override
        public void add(List<Count> deltas) {
        }

        @Override
        public List<Count> all() {
            return null;
        }

        @Override
        public void forgetBefore(LimitKind kind, long bucket) {
        }
    };

    /** Adds each amount to its bucket's total. */
    void add(List<Count> deltas);

    /** Every stored bucket with the cluster's totals; null when there is no shared store. */
    List<Count> all();

    /** Drops the buckets of {@code kind} older than {@code bucket} (they left their window). */
    void forgetBefore(LimitKind kind, long bucket);
}
