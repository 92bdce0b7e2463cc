package dev.detour.adapter.upstream;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The upstream connections kept open between exchanges, per route, last released first out; at most
 * {@code maxPerRoute} open per route and {@code maxTotal} in all (a lease at a limit waits for a connection to come
 * free, as long as the connect timeout).
 *
 * <p>An upstream closes a keep-alive connection that sat idle past its timeout without telling us; with retries off,
 * reusing it would fail an attempt. The reuse rules:
 * <ul>
 * <li>idle under {@code uncheckedNanos} (3 s: the shortest common upstream keep-alive timeout is 5 s, Node.js and
 *     uvicorn): reused as is;</li>
 * <li>idle up to {@code watchedNanos} (until {@link #evictIdle} closes it as idle too long): each sweep re-checks the
 *     connection each route released last, the one a lease takes next; a lease trusts such a check for
 *     {@code trustNanos}, so a closed connection is caught within one sweep;</li>
 * <li>any other connection, or one no fresh check covers: checked at lease time.</li>
 * </ul>
 * A check is one read that does not wait ({@link UpstreamConnection#closedWhileIdle}). An upstream can still close a
 * connection between its last check and a lease, or under 3 s idle: the client sends such a request once more on a
 * fresh connection when the reused one closes before any byte of an answer ({@link UpstreamConnection#reusedUnchecked}).
 * A request that must never be sent twice (P-10) trusts no background check. Once a sweep finds that a route closes
 * idle connections, leases of its connections idle longer than they were last seen alive go back to the lease-time
 * check.
 */
final class ConnectionPool {
    /** Opens a new connection for a route (the client's connect). */
    interface Connector {
        UpstreamConnection open(UpstreamUris.Route route) throws IOException;
    }

    private final Map<UpstreamUris.Route, RoutePool> routes = new ConcurrentHashMap<>();
    /** Per route that closed an idle connection: the idle time from which background checks are not trusted. */
    private final Map<UpstreamUris.Route, Long> closesIdleAfter = new ConcurrentHashMap<>();
    private final Set<UpstreamConnection> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger total = new AtomicInteger();
    private final AtomicLong leaseTimeChecks = new AtomicLong();
    private final Connector connector;
    private final int maxTotal;
    private final int maxPerRoute;
    private final LongSupplier nanoTime;
    private final long uncheckedNanos;
    private final long watchedNanos;
    private final long trustNanos;
    private volatile boolean closed;

    ConnectionPool(Connector connector, int maxTotal, int maxPerRoute, long uncheckedNanos, long watchedNanos,
            long trustNanos, LongSupplier nanoTime) {
        this.connector = connector;
        this.maxTotal = maxTotal;
        this.maxPerRoute = maxPerRoute;
        this.uncheckedNanos = uncheckedNanos;
        this.watchedNanos = watchedNanos;
        this.trustNanos = trustNanos;
        this.nanoTime = nanoTime;
    }

    /**
     * A connection to {@code route} for one exchange: the last released one a rule vouches for or a check finds
     * open, else a new one. {@code trustChecks} false: only the unchecked window vouches (a request that must not be
     * sent twice).
     */
    UpstreamConnection lease(UpstreamUris.Route route, boolean trustChecks, long waitNanos) throws IOException {
        RoutePool pool = routes.computeIfAbsent(route, RoutePool::new);
        long deadline = System.nanoTime() + waitNanos;
        for (;;) {
            if (closed) {
                throw new IllegalStateException("the upstream client is closed");
            }
            UpstreamConnection connection;
            while ((connection = pool.idle.pollFirst()) != null) {
                if (leasable(connection, trustChecks)) {
                    return connection;
                }
                connection.reset();
            }
            if (pool.reserve()) {
                return opened(pool);
            }
            pool.awaitFree(deadline);
        }
    }

    /** Takes back a connection whose exchange ended cleanly with nothing unread, for the next lease. */
    void release(UpstreamConnection connection) {
        RoutePool pool = routes.get(connection.route());
        if (closed || pool == null || !connection.isOpen() || connection.input().buffered() > 0) {
            // bytes past the answer's end are no answer to the next request: the connection is out of step
            connection.close();
            return;
        }
        connection.lock.lock();
        try {
            connection.releasedAt = nanoTime.getAsLong();
            connection.idleSince = System.nanoTime();
            connection.aliveAtIdle = -1;
            connection.idle = true;
        } finally {
            connection.lock.unlock();
        }
        pool.idle.offerFirst(connection);
        pool.signalFree();
    }

    /** One background pass: checks the connection each route released last while it is idle in the watched window. */
    void sweep() {
        for (RoutePool pool : routes.values()) {
            UpstreamConnection last = pool.idle.peekFirst();
            if (last != null) {
                checkIfDue(last);
            }
        }
    }

    /**
     * Closes the connections idle for {@code idleNanos} or longer, on real time ({@code now}: {@link System#nanoTime})
     * rather than the reuse rules' clock, as a separate evictor would.
     */
    void evictIdle(long now, long idleNanos) {
        for (RoutePool pool : routes.values()) {
            for (UpstreamConnection connection : pool.idle) {
                if (now - connection.idleSince >= idleNanos && pool.idle.remove(connection)) {
                    connection.close();
                }
            }
        }
    }

    /** How many leases checked their connection then (tests). */
    long leaseTimeChecks() {
        return leaseTimeChecks.get();
    }

    /** Closes every connection, idle or in an exchange (which then fails), and refuses leases from now on. */
    void close() {
        closed = true;
        for (UpstreamConnection connection : open) {
            connection.reset();
        }
        routes.values().forEach(RoutePool::signalFree);
    }

    private UpstreamConnection opened(RoutePool pool) throws IOException {
        UpstreamConnection connection;
        try {
            connection = connector.open(pool.route);
        } catch (IOException | RuntimeException e) {
            pool.unreserve();
            throw e;
        }
        open.add(connection);
        connection.onClose(() -> {
            open.remove(connection);
            pool.unreserve();
        });
        if (closed) {
            connection.reset();
            throw new IllegalStateException("the upstream client is closed");
        }
        return connection;
    }

    /** Under the connection's lock (a background check in progress finishes first). */
    private boolean leasable(UpstreamConnection connection, boolean trustChecks) {
        connection.lock.lock();
        try {
            connection.idle = false;
            if (!connection.isOpen()) {
                return false;
            }
            if (vouchedFor(connection, nanoTime.getAsLong(), trustChecks)) {
                connection.reusedUnchecked = true;
                return true;
            }
            connection.reusedUnchecked = false;
            leaseTimeChecks.incrementAndGet();
            return !connection.closedWhileIdle();
        } finally {
            connection.lock.unlock();
        }
    }

    /** Reused unchecked: idle briefly, or a fresh background check covers it (if trusted, as far as its route allows). */
    private boolean vouchedFor(UpstreamConnection connection, long now, boolean trustChecks) {
        long idleFor = now - connection.releasedAt;
        long alive = connection.aliveAtIdle;
        return idleFor < uncheckedNanos || trustChecks
                && idleFor < trustChecksUnder(connection.route()) && alive >= 0 && idleFor - alive < trustNanos;
    }

    private void checkIfDue(UpstreamConnection connection) {
        long idleFor = nanoTime.getAsLong() - connection.releasedAt;
        // start early enough that a check is fresh when the unchecked window ends
        boolean due = connection.idle && idleFor >= uncheckedNanos - trustNanos && idleFor < watchedNanos;
        if (!due || !connection.lock.tryLock()) {
            return; // not at risk yet, past the watched window, or being leased right now
        }
        try {
            if (!connection.idle || !connection.isOpen()) {
                return; // leased since the sweep looked, or closed
            }
            if (connection.closedWhileIdle()) {
                learnThatIdleConnectionsClose(connection);
                connection.reset(); // the next lease finds it closed and takes another
            } else {
                connection.aliveAtIdle = nanoTime.getAsLong() - connection.releasedAt;
            }
        } finally {
            connection.lock.unlock();
        }
    }

    private long trustChecksUnder(UpstreamUris.Route route) {
        Long closes = closesIdleAfter.get(route);
        return closes == null ? watchedNanos : Math.min(watchedNanos, closes);
    }

    /** Found closed while idle: never trust a check past the idle time it was last seen alive at. */
    private void learnThatIdleConnectionsClose(UpstreamConnection connection) {
        closesIdleAfter.merge(connection.route(), Math.max(uncheckedNanos, connection.aliveAtIdle), Math::min);
    }

    /** One route's idle connections and count; a lease at a limit waits here for one to come free. */
    private final class RoutePool {
        final UpstreamUris.Route route;
        final Deque<UpstreamConnection> idle = new ConcurrentLinkedDeque<>();
        final AtomicInteger count = new AtomicInteger();
        final AtomicInteger waiting = new AtomicInteger();
        final ReentrantLock lock = new ReentrantLock();
        final Condition free = lock.newCondition();

        RoutePool(UpstreamUris.Route route) {
            this.route = route;
        }

        /** Counts a connection about to be opened, if both limits allow one more. */
        boolean reserve() {
            if (count.incrementAndGet() > maxPerRoute) {
                count.decrementAndGet();
                return false;
            }
            if (total.incrementAndGet() > maxTotal) {
                total.decrementAndGet();
                count.decrementAndGet();
                return false;
            }
            return true;
        }

        void unreserve() {
            total.decrementAndGet();
            count.decrementAndGet();
            signalFree();
        }

        void signalFree() {
            if (waiting.get() > 0) {
                lock.lock();
                try {
                    free.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        }

        /**
         * Waits until a connection may have come free, or fails once the deadline passed. The wait is short: a
         * connection of another route closing frees room under the total limit without a signal here.
         */
        void awaitFree(long deadline) throws IOException {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new Http1Failure.PoolExhausted("no connection to " + route + " came free within the connect"
                        + " timeout (" + maxPerRoute + " per upstream, " + maxTotal + " in all)");
            }
            waiting.incrementAndGet();
            lock.lock();
            try {
                if (idle.isEmpty() && (count.get() >= maxPerRoute || total.get() >= maxTotal) && !closed) {
                    free.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)), TimeUnit.NANOSECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for an upstream connection");
            } finally {
                lock.unlock();
                waiting.decrementAndGet();
            }
        }
    }
}
