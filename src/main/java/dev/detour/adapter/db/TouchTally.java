package dev.detour.adapter.db;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Account touches (success/error counts, last used time, C-3 served models) coalesced per flush:
 * one UPDATE per account per batch, carrying the sums and the latest time. Request threads only
 * append to a lock-free queue (the JFR profile showed them waiting on the old synchronized map);
 * the writer thread alone folds and reads the sums.
 */
final class TouchTally {
    private record Touch(long accountId, boolean success, Instant at, String modelKey) {
    }

    private record ServedKey(long accountId, String modelKey) {
    }

    private final ConcurrentLinkedQueue<Touch> incoming = new ConcurrentLinkedQueue<>();
    private final Map<Long, AccountTouch> accounts = new TreeMap<>(); // id order: stable lock order
    private final Map<ServedKey, ServedModel> served = new HashMap<>();

    /** Any thread; never blocks. */
    void add(long accountId, boolean success, Instant at, String modelKey) {
        incoming.add(new Touch(accountId, success, at, modelKey));
    }

    /** Writer thread: folds every touch that arrived so far into the pending sums. */
    void drain() {
        Touch t;
        while ((t = incoming.poll()) != null) {
            fold(t);
        }
    }

    Collection<AccountTouch> accounts() {
        return accounts.values();
    }

    Collection<ServedModel> served() {
        return served.values();
    }

    void clear() {
        accounts.clear();
        served.clear();
    }

    private void fold(Touch t) {
        accounts.merge(t.accountId(), new AccountTouch(t.accountId(), t.success() ? 1 : 0, t.success() ? 0 : 1, t.at()),
                (a, b) -> new AccountTouch(a.accountId(), a.successDelta() + b.successDelta(),
                        a.errorDelta() + b.errorDelta(), later(a.lastUsedAt(), b.lastUsedAt())));
        if (t.success() && t.modelKey() != null) {
            served.merge(new ServedKey(t.accountId(), t.modelKey()), new ServedModel(t.accountId(), t.modelKey(), t.at()),
                    (a, b) -> new ServedModel(a.accountId(), a.modelKey(), later(a.lastServedAt(), b.lastServedAt())));
        }
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
