package dev.detour.gateway.live;

import dev.detour.gateway.port.DatabaseUnavailable;
import dev.detour.gateway.port.LoadStore;
import dev.detour.gateway.port.SessionBinding;
import dev.detour.gateway.wire.KeyHashes;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * S-6 session stickiness: (key, sha256(session id), model) → account, rolling TTL (30 min unless the
 * {@code sticky_ttl_seconds} setting says otherwise; 0 = off), stored in MariaDB so every instance
 * honours it. N-2: a cache sits in front; the database is read only on a cache miss or when the
 * cached entry is older than {@link #RECHECK} (so a binding moved by another instance is seen
 * within a minute), and every write (bind, renew at most once per {@link #RECHECK}, unbind) goes
 * through one background writer, never on the request thread.
 */
public final class SessionBindings implements AutoCloseable {
    public static final Duration TTL = Duration.ofMinutes(30);
    public static final Duration RECHECK = Duration.ofMinutes(1);
    private static final Logger log = LoggerFactory.getLogger(SessionBindings.class);

    private record Key(long keyId, String sessionHash, String model) {
    }

    /** {@code binding} null = known unbound; {@code checkedAt} = last read of the database. */
    private record Cached(SessionBinding binding, Instant checkedAt) {
    }

    private final LoadStore store;
    private volatile QuickReads reads = QuickReads.direct();
    private volatile Duration ttl = TTL;
    private final Map<Key, Cached> cache = new ConcurrentHashMap<>();
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "detour-session-bindings");
        t.setDaemon(true);
        return t;
    });

    public SessionBindings(LoadStore store) {
        this.store = store;
    }

    /**
     * U-5 live: the rolling TTL for bindings made or renewed from now on; zero turns stickiness off
     * (no lookup, no write). Bindings already stored keep their expiry until renewed.
     */
    public void useTtl(Duration newTtl) {
        this.ttl = newTtl == null || newTtl.isNegative() ? TTL : newTtl;
    }

    /** D-1: cache-miss reads wait at most {@link QuickReads#DEADLINE}, none while the database is away. */
    public void readThrough(QuickReads quickReads) {
        this.reads = quickReads;
    }

    /** The account this session is bound to, or null (no session id, none, or expired). */
    public Long lookup(long keyId, String sessionId, String model, Instant now) {
        if (sessionId == null || sessionId.isEmpty() || ttl.isZero()) {
            return null;
        }
        Key key = key(keyId, sessionId, model);
        Cached cached = cache.get(key);
        if (cached == null || !cached.checkedAt().plus(RECHECK).isAfter(now)) {
            Cached read = reads.read(() -> new Cached(readQuietly(key), now), null);
            if (read != null) {
                cached = read;
                cache.put(key, cached);
            } else if (cached == null) {
                return null; // D-1: the database did not answer in time; stickiness is best effort
            }
        }
        SessionBinding b = cached.binding();
        return b != null && b.expiresAt().isAfter(now) ? b.accountId() : null;
    }

    /** After a success on {@code accountId}: bind, or renew lazily (at most once per RECHECK). */
    public void served(long keyId, String sessionId, String model, long accountId, Instant now) {
        Duration life = ttl;
        if (sessionId == null || sessionId.isEmpty() || life.isZero()) {
            return;
        }
        Key key = key(keyId, sessionId, model);
        Cached cached = cache.get(key);
        SessionBinding b = cached == null ? null : cached.binding();
        if (b != null && b.accountId() == accountId && renewedLately(b, life, now)) {
            return; // renewed a moment ago: nothing to write (N-2)
        }
        SessionBinding next = new SessionBinding(keyId, key.sessionHash(), key.model(), accountId, now.plus(life));
        cache.put(key, new Cached(next, cached == null ? now : cached.checkedAt()));
        write(() -> store.upsertBinding(next));
    }

    /**
     * Renewed within the last RECHECK (or half the TTL when that is shorter, so a short TTL is still
     * renewed before it runs out) and not past the current TTL (it may just have been lowered).
     */
    private static boolean renewedLately(SessionBinding b, Duration life, Instant now) {
        Duration gap = RECHECK.compareTo(life.dividedBy(2)) < 0 ? RECHECK : life.dividedBy(2);
        return b.expiresAt().isAfter(now.plus(life).minus(gap)) && !b.expiresAt().isAfter(now.plus(life));
    }

    /** The bound account failed or could not serve: unbind, the request falls through (S-6). */
    public void unbind(long keyId, String sessionId, String model, long accountId, Instant now) {
        if (sessionId == null || sessionId.isEmpty()) {
            return;
        }
        Key key = key(keyId, sessionId, model);
        Cached cached = cache.get(key);
        if (cached != null && cached.binding() != null && cached.binding().accountId() == accountId) {
            cache.put(key, new Cached(null, now));
            write(() -> store.deleteBinding(keyId, key.sessionHash(), key.model(), accountId));
        }
    }

    /** Every 5 min (App's scheduler): deletes expired bindings everywhere. */
    public int sweep(Instant now) {
        cache.values().removeIf(c -> c.binding() != null && !c.binding().expiresAt().isAfter(now));
        return store.deleteExpiredBindings(now);
    }

    /** Waits until every queued write is done (tests, shutdown). */
    public void flush() {
        try {
            writer.submit(() -> { }).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.warn("session binding writes did not flush: {}", e.toString());
        }
    }

    private SessionBinding readQuietly(Key key) {
        try {
            return store.findBinding(key.keyId(), key.sessionHash(), key.model());
        } catch (RuntimeException e) {
            log.warn("session binding could not be read: {}", e.toString());
            return null; // stickiness is best effort: never block the request (S-6)
        }
    }

    private void write(Runnable work) {
        writer.execute(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                if (!DatabaseUnavailable.isBehind(e)) { // D-1: an outage is logged once, by DatabaseHealth
                    log.warn("session binding write failed: {}", e.toString());
                }
            }
        });
    }

    private static Key key(long keyId, String sessionId, String model) {
        return new Key(keyId, KeyHashes.sha256Hex(sessionId), model == null ? "" : model);
    }

    @Override
    public void close() {
        if (writer.isShutdown()) {
            return;
        }
        flush();
        writer.shutdown();
    }
}
