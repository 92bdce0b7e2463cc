package dev.detour.adapter.db;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Account touches (success/error counts, last used time, C-3 served models) coalesced per flush:
 * one UPDATE per account per batch, carrying the sums and the latest time. Request threads only
 * append to a lock-free queue (the JFR profile showed them waiting on the old synchronized map);
 * the writer thread alone folds and reads the sums.
 *
 * <p>A served model's time is written when the (account, model) pair is new to this writer, and then at most
 * once per {@link #SERVED_REFRESH}: C-3 asks only whether a model was served within the last 24 hours, and an
 * upsert per served pair per batch was a third of the writer's database time with a 200-account pool (N-10).
 */
final class TouchTally {
    private record Touch(long accountId, boolean success, Instant at, String modelKey) {
    }

    private record ServedKey(long accountId, String modelKey) {
    }

    private final ConcurrentLinkedQueue<Touch> incoming = new ConcurrentLinkedQueue<>();
    private final Map<Long, AccountTouch> accounts = new TreeMap<>(); // id order: stable lock order
    private final Map<ServedKey, ServedModel> served = new HashMap<>();
    /** The served time last flushed per pair; bounded: forgotten whole past {@link #REMEMBERED} pairs. */
    private final Map<ServedKey, Instant> servedWritten = new HashMap<>();
    static final Duration SERVED_REFRESH = Duration.ofMinutes(1);
    static final int REMEMBERED = 10_000;

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

    /** The served models to write in this flush: new pairs, and pairs last written a refresh ago or more. */
    Collection<ServedModel> served() {
        List<ServedModel> due = new ArrayList<>();
        for (Map.Entry<ServedKey, ServedModel> e : served.entrySet()) {
            Instant written = servedWritten.get(e.getKey());
            if (written == null || !e.getValue().lastServedAt().isBefore(written.plus(SERVED_REFRESH))) {
                due.add(e.getValue());
            }
        }
        return due;
    }

    /** After a flush: what {@link #served()} gave is written (or given up), the pairs not due are left out. */
    void clear() {
        if (servedWritten.size() > REMEMBERED) {
            servedWritten.clear(); // every pair is due once more: a bound, not a loss
        }
        for (ServedModel m : served()) {
            servedWritten.put(new ServedKey(m.accountId(), m.modelKey()), m.lastServedAt());
        }
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
