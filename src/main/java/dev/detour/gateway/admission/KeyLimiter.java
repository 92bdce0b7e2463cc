package dev.detour.gateway.admission;

import dev.detour.core.keys.KeyLimits;
import dev.detour.core.keys.KeyUsage;
import dev.detour.core.keys.KeyWindows;
import dev.detour.core.keys.LimitCheck;
import dev.detour.core.keys.LimitKind;
import dev.detour.core.keys.RollingCount;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.port.KeyLimitStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongUnaryOperator;

/**
 * L-1 per-key limits on this instance: admits or refuses a request from memory (no database on the request
 * path), counts requests, tokens and spend in their windows' buckets, holds each key's requests in flight,
 * and once a second ({@link #sync}) adds what it counted to the shared table and reads every instance's
 * totals back (L-4). Only keys with a limit are counted.
 *
 * <p>Every request of a key meets every other one here, so a request takes its key's lock once, to be admitted:
 * its end ({@link Admission#release}) and its usage ({@link #used}) do not wait for it — the usage is queued and
 * counted by the next thread that takes the lock (an admission, /my's headroom or the sync), before it reads. Three
 * lock rounds per request made a convoy under load on two cores (JFR, session 15: request threads parked > 10 ms
 * on one key's lock ~900 times in 20 s; 12–15k req/s with limits on the key against 18–20k without).
 */
public final class KeyLimiter {
    /** {@link LimitKind#values()} copies its array on each call; {@link #used} runs for every answer. */
    private static final LimitKind[] KINDS = LimitKind.values();
    private final Clock clock;
    private final Map<Long, Tally> tallies = new ConcurrentHashMap<>();
    private volatile KeyLimitStore store = KeyLimitStore.NONE;
    private volatile LongUnaryOperator share = n -> n;
    private long syncs;

    public KeyLimiter(Clock clock) {
        this.clock = clock;
    }

    /** L-4: the shared count and this instance's share of a number among the live instances (G-2). */
    public void shareThrough(KeyLimitStore shared, LongUnaryOperator instanceShare) {
        this.store = shared;
        this.share = instanceShare;
    }

    /** A request's place under its key's limits: the verdict, and (admitted) its hold on the concurrency. */
    public static final class Admission {
        /** A key without limits: nothing counted, no headers. */
        public static final Admission NONE = new Admission(null, null);
        private final LimitCheck.Verdict verdict;
        private final Tally held;
        private final AtomicBoolean released = new AtomicBoolean();

        private Admission(LimitCheck.Verdict verdict, Tally held) {
            this.verdict = verdict;
            this.held = held;
        }

        /** Null for a key without limits. */
        public LimitCheck.Verdict verdict() {
            return verdict;
        }

        public boolean refused() {
            return verdict != null && !verdict.admitted();
        }

        /** Ends the request's hold on its key's concurrency; once, however often it is called. */
        public void release() {
            if (held != null && released.compareAndSet(false, true)) {
                held.inFlight.decrementAndGet(); // only the admission, under the lock, checks and adds
            }
        }
    }

    /** L-1: admitted (counted as a request and in flight until {@link Admission#release}) or refused. */
    public Admission admit(KeyEntry key) {
        KeyLimits limits = key.policy().limits();
        if (!limits.any()) {
            return Admission.NONE;
        }
        Instant now = clock.instant();
        Tally tally = tallies.computeIfAbsent(key.id(), id -> new Tally());
        synchronized (tally) {
            tally.countQueued();
            LimitCheck.Verdict verdict = LimitCheck.admit(limits, tally.usage(), share, now);
            if (!verdict.admitted()) {
                return new Admission(verdict, null);
            }
            tally.count(LimitKind.REQUESTS, now, 1);
            tally.inFlight.incrementAndGet();
            return new Admission(verdict, tally);
        }
    }

    /**
     * L-1: a request's usage arrived: its input + output tokens and its cost count from now (in the buckets of
     * now, whenever the queued usage is counted).
     */
    public void used(long keyId, long tokens, long spendMicros) {
        Tally tally = tallies.get(keyId);
        if (tally == null) {
            return; // a key without limits is not counted
        }
        if (tokens > 0 || spendMicros > 0) {
            tally.queued.add(new Usage(clock.instant(), tokens, spendMicros));
        }
    }

    /** U-9: each of the key's limits, what is used and when the oldest count leaves (for /my). */
    public List<LimitCheck.Headroom> headroom(KeyEntry key) {
        Tally tally = tallies.get(key.id());
        if (tally == null) {
            return LimitCheck.headroom(key.policy().limits(), KeyUsage.NONE, share, clock.instant());
        }
        synchronized (tally) {
            tally.countQueued();
            return LimitCheck.headroom(key.policy().limits(), tally.usage(), share, clock.instant());
        }
    }

    /**
     * L-4, once a second: adds this instance's new counts to the shared table, then takes every instance's
     * totals as the known count. A failed write keeps the counts for the next sync; a failed read after a
     * good write keeps them as known, so nothing is counted twice or lost from view.
     */
    public synchronized void sync() {
        Instant now = clock.instant();
        Map<Long, Map<LimitKind, Map<Long, Long>>> outgoing = new HashMap<>();
        List<KeyLimitStore.Count> deltas = new ArrayList<>();
        tallies.forEach((id, tally) -> {
            synchronized (tally) {
                tally.countQueued();
                Map<LimitKind, Map<Long, Long>> copy = copy(tally.pending);
                outgoing.put(id, copy);
                copy.forEach((kind, buckets) -> buckets.forEach((b, n) -> deltas.add(
                        new KeyLimitStore.Count(id, kind, b, n))));
            }
        });
        if (!deltas.isEmpty()) {
            store.add(deltas);
        }
        List<KeyLimitStore.Count> totals;
        try {
            totals = store.all();
        } catch (RuntimeException e) {
            settle(outgoing, null);
            throw e;
        }
        settle(outgoing, totals);
        if (syncs++ % 60 == 0) { // left-over buckets go once a minute; reads ignore them meanwhile
            for (LimitKind kind : LimitKind.values()) {
                if (kind.counted()) {
                    store.forgetBefore(kind, RollingCount.oldestLive(kind.window(), now));
                }
            }
        }
    }

    /** The written counts leave the pending ones; the known counts become {@code totals} (null: add them instead). */
    private void settle(Map<Long, Map<LimitKind, Map<Long, Long>>> written, List<KeyLimitStore.Count> totals) {
        Map<Long, Map<LimitKind, Map<Long, Long>>> byKey = new HashMap<>();
        if (totals != null) {
            totals.forEach(c -> byKey.computeIfAbsent(c.keyId(), k -> new EnumMap<>(LimitKind.class))
                    .computeIfAbsent(c.kind(), k -> new HashMap<>()).merge(c.bucket(), c.amount(), Long::sum));
            byKey.keySet().forEach(id -> tallies.computeIfAbsent(id, k -> new Tally()));
        }
        tallies.forEach((id, tally) -> {
            synchronized (tally) {
                tally.windows.forget();
                Map<LimitKind, Map<Long, Long>> sent = written.getOrDefault(id, Map.of());
                sent.forEach((kind, buckets) -> buckets.forEach((b, n) -> {
                    tally.pending.get(kind).computeIfPresent(b, (k, left) -> left == n ? null : left - n);
                    if (totals == null) {
                        tally.synced.computeIfAbsent(kind, k -> new HashMap<>()).merge(b, n, Long::sum);
                    }
                }));
                if (totals != null) {
                    tally.synced.clear();
                    tally.synced.putAll(byKey.getOrDefault(id, Map.of()));
                }
            }
        });
    }

    private static Map<LimitKind, Map<Long, Long>> copy(Map<LimitKind, Map<Long, Long>> counts) {
        Map<LimitKind, Map<Long, Long>> out = new EnumMap<>(LimitKind.class);
        counts.forEach((kind, buckets) -> {
            if (!buckets.isEmpty()) {
                out.put(kind, new HashMap<>(buckets));
            }
        });
        return out;
    }

    /** A request's tokens and cost, as they arrived, until the key's lock is next taken. */
    private record Usage(Instant at, long tokens, long spendMicros) {
    }

    /** One key's counts on this instance; the maps guarded by its own monitor. */
    private static final class Tally {
        final Map<LimitKind, Map<Long, Long>> synced = new EnumMap<>(LimitKind.class);
        final Map<LimitKind, Map<Long, Long>> pending = new EnumMap<>(LimitKind.class);
        /** Usage reported since the lock was last taken: counted by its next holder, before anything is read. */
        final ConcurrentLinkedQueue<Usage> queued = new ConcurrentLinkedQueue<>();
        /** Checked and raised only under the monitor (the admission); lowered without it (a request's end). */
        final AtomicInteger inFlight = new AtomicInteger();
        /** Each kind's window, kept as {@link #count} adds to it; forgotten when a sync changes the maps. */
        final KeyWindows windows = new KeyWindows();

        Tally() {
            for (LimitKind kind : LimitKind.values()) {
                if (kind.counted()) {
                    pending.put(kind, new HashMap<>());
                }
            }
        }

        KeyUsage usage() {
            return new KeyUsage(synced, pending, inFlight.get(), windows);
        }

        /** Under the monitor: the queued usage into its buckets. */
        void countQueued() {
            for (Usage usage = queued.poll(); usage != null; usage = queued.poll()) {
                count(LimitKind.TOKENS, usage.at(), usage.tokens());
                for (LimitKind kind : KINDS) {
                    if (kind.counted() && kind != LimitKind.REQUESTS && kind != LimitKind.TOKENS) {
                        count(kind, usage.at(), usage.spendMicros());
                    }
                }
            }
        }

        void count(LimitKind kind, Instant now, long amount) {
            if (amount <= 0) {
                return;
            }
            Map<Long, Long> buckets = pending.get(kind);
            long bucket = RollingCount.bucket(kind.window(), now);
            windows.counted(kind, bucket, amount);
            if (buckets.merge(bucket, amount, Long::sum) == amount) {
                // a new bucket: drop those that left the window (the map stays at most one window long)
                long oldest = RollingCount.oldestLive(kind.window(), now);
                buckets.keySet().removeIf(b -> b < oldest);
                Map<Long, Long> known = synced.get(kind);
                if (known != null) {
                    known.keySet().removeIf(b -> b < oldest);
                }
            }
        }
    }
}
