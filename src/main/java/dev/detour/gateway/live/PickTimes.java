package dev.detour.gateway.live;

import dev.detour.core.selection.LastPicks;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * S-4's last pick per account, keyed by the primitive id (open addressing, linear probing): every request reads
 * it for every account of its tier, and a {@code ConcurrentHashMap<Long, Instant>} boxed each id above 127 on
 * each of those reads. Reads never lock; a pick of an account already in the table is one array store; only an
 * account's first pick takes the lock (to claim a slot, or to grow the table). A reader racing a first pick may
 * not see it yet, as if it had read a moment earlier.
 */
final class PickTimes implements LastPicks {
    private static final long EMPTY = Long.MIN_VALUE; // no account has this id
    private static final int FIRST_CAPACITY = 256;

    /** Keys and times of one capacity; replaced whole when it grows. */
    private record Table(AtomicLongArray ids, AtomicReferenceArray<Instant> times) {
        static Table of(int capacity) {
            AtomicLongArray ids = new AtomicLongArray(capacity);
            for (int i = 0; i < capacity; i++) {
                ids.set(i, EMPTY);
            }
            return new Table(ids, new AtomicReferenceArray<>(capacity));
        }

        int capacity() {
            return ids.length();
        }

        /** The slot holding {@code id}, or -1 - the empty slot where it would go. */
        int slotOf(long id) {
            int mask = capacity() - 1;
            for (int i = Long.hashCode(id * 0x9E3779B97F4A7C15L) & mask; ; i = (i + 1) & mask) {
                long at = ids.get(i);
                if (at == id) {
                    return i;
                }
                if (at == EMPTY) {
                    return -1 - i;
                }
            }
        }
    }

    private final ReentrantLock inserts = new ReentrantLock();
    private volatile Table table = Table.of(FIRST_CAPACITY);
    /** Accounts in the table; under {@code inserts}. */
    private int size;

    @Override
    public Instant of(long accountId) {
        Table t = table;
        int slot = t.slotOf(accountId);
        return slot < 0 ? null : t.times().get(slot);
    }

    void picked(long accountId, Instant at) {
        Table t = table;
        int slot = t.slotOf(accountId);
        if (slot >= 0) {
            t.times().set(slot, at);
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
                t.times().set(-1 - slot, at); // the time before the id: a reader that finds the id finds a time
                t.ids().set(-1 - slot, accountId);
                size++;
                table = t;
            } else {
                t.times().set(slot, at);
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
            long id = old.ids().get(i);
            if (id != EMPTY) {
                int slot = -1 - bigger.slotOf(id);
                bigger.times().set(slot, old.times().get(i));
                bigger.ids().set(slot, id);
            }
        }
        return bigger;
    }
}
