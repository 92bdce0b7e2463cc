package dev.detour.gateway.live;

import dev.detour.core.selection.EpochNanos;
import dev.detour.core.selection.LastPicks;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * S-4's last pick per account, keyed by the primitive id (open addressing, linear probing): every request reads
 * it for every account of its tier, and a {@code ConcurrentHashMap<Long, Instant>} boxed each id above 127 on
 * each of those reads. A slot is two neighbouring longs, the id and the pick's {@link EpochNanos}, so a read
 * touches one cache line and no object (N-10). Reads never lock; a pick of an account already in the table is
 * one array store; only an account's first pick takes the lock (to claim a slot, or to grow the table). A reader
 * racing a first pick may not see it yet, as if it had read a moment earlier.
 */
final class PickTimes implements LastPicks {
    private static final long EMPTY = Long.MIN_VALUE; // no account has this id
    private static final int FIRST_CAPACITY = 256;

    /** Slots of one capacity, id at {@code 2 × slot}, time at {@code 2 × slot + 1}; replaced whole when it grows. */
    private record Table(AtomicLongArray slots) {
        static Table of(int capacity) {
            AtomicLongArray slots = new AtomicLongArray(2 * capacity);
            for (int i = 0; i < capacity; i++) {
                slots.set(2 * i, EMPTY);
                slots.set(2 * i + 1, EpochNanos.NEVER);
            }
            return new Table(slots);
        }

        int capacity() {
            return slots.length() / 2;
        }

        /** The slot holding {@code id}, or -1 - the empty slot where it would go. */
        int slotOf(long id) {
            int mask = capacity() - 1;
            for (int i = Long.hashCode(id * 0x9E3779B97F4A7C15L) & mask; ; i = (i + 1) & mask) {
                long at = slots.get(2 * i);
                if (at == id) {
                    return i;
                }
                if (at == EMPTY) {
                    return -1 - i;
                }
            }
        }

        long time(int slot) {
            return slots.get(2 * slot + 1);
        }

        void time(int slot, long nanos) {
            slots.set(2 * slot + 1, nanos);
        }

        void id(int slot, long id) {
            slots.set(2 * slot, id);
        }
    }

    private final ReentrantLock inserts = new ReentrantLock();
    private volatile Table table = Table.of(FIRST_CAPACITY);
    /** Accounts in the table; under {@code inserts}. */
    private int size;

    @Override
    public Instant of(long accountId) {
        return EpochNanos.toInstant(nanosOf(accountId));
    }

    @Override
    public long nanosOf(long accountId) {
        Table t = table;
        int slot = t.slotOf(accountId);
        return slot < 0 ? EpochNanos.NEVER : t.time(slot);
    }

    void picked(long accountId, Instant at) {
        long nanos = EpochNanos.of(at);
        Table t = table;
        int slot = t.slotOf(accountId);
        if (slot >= 0) {
            t.time(slot, nanos);
            return;
        }
        inserts.lock();
        try {
            t = table;
            slot = t.slotOf(accountId);
            if (slot < 0) {
                if (2 * (size + 1) > t.capacity()) { // at most half full: probes stay short
                    t = grown(t);
                    slot = t.slotOf(accountId);
                }
                t.time(-1 - slot, nanos); // the time before the id: a reader that finds the id finds a time
                t.id(-1 - slot, accountId);
                size++;
                table = t;
            } else {
                t.time(slot, nanos);
            }
        } finally {
            inserts.unlock();
        }
    }

    /**
     * Under {@code inserts}: a table of twice the capacity with every pick copied. A pick of a known account made
     * into the old table while this copies may be lost; the next pick of that account records it again.
     */
    private static Table grown(Table old) {
        Table bigger = Table.of(old.capacity() * 2);
        for (int i = 0; i < old.capacity(); i++) {
            long id = old.slots().get(2 * i);
            if (id != EMPTY) {
                int slot = -1 - bigger.slotOf(id);
                bigger.time(slot, old.time(i));
                bigger.id(slot, id);
            }
        }
        return bigger;
    }
}
