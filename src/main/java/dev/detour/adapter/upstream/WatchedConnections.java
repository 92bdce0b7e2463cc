package dev.detour.adapter.upstream;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLSocket;
import org.apache.hc.client5.http.impl.io.DefaultManagedHttpClientConnection;
import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.core5.http.ContentLengthStrategy;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.impl.io.SocketHolder;
import org.apache.hc.core5.http.io.HttpConnectionFactory;
import org.apache.hc.core5.http.io.SessionInputBuffer;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * Pooled upstream connections whose reuse check mostly runs off the request path.
 *
 * <p>An upstream closes a keep-alive connection that sat idle past its timeout without telling us; with
 * retries off, reusing it would fail an attempt. HttpClient's check is a read with a 1 ms timeout that a
 * healthy connection always waits out in full, so a request paid 1.3-1.7 ms whenever its connection had
 * been idle long enough to be checked: on a quiet gateway, nearly every request. The rules here:
 * <ul>
 * <li>idle under {@code uncheckedNanos} (3 s: the shortest common upstream keep-alive timeout is 5 s,
 *     Node.js and uvicorn): reused as is, as before;</li>
 * <li>idle up to {@code watchedNanos} (until the evictor closes it): {@link #sweep} re-checks, every sweep,
 *     the connection each upstream address released last, the one the pool's last-in-first-out lease hands
 *     out next; a lease trusts such a check for {@code trustNanos}, so a closed connection is caught within
 *     one sweep;</li>
 * <li>any other connection, or one no fresh check covers: checked at lease time, as before.</li>
 * </ul>
 * An upstream can still close a connection between its last check and a lease (its timeout falls inside
 * the trust), or under 3 s idle (as it always could): the client sends such a request once more on a fresh
 * connection when the reused one closes before any byte of an answer ({@link #leasedUnchecked}). A request
 * that must never be sent twice (P-10) trusts no background check, so it meets only the old risk. And once a
 * sweep finds that an address closes idle connections, leases of its connections idle longer than they
 * were last seen alive go back to the lease-time check, so that re-send stays a rare event. Only the
 * last-released connection per address is watched: a sweep stays a few 1 ms reads however large the pool
 * grew in a burst. Each connection's lock keeps a check and a lease off the socket together.
 *
 * <p>Each connection also keeps P-4's read gap with {@link ReadGaps} rather than a socket read timeout: the
 * timeout HttpClient sets per exchange becomes the connection's gap and the socket reads without one.
 */
final class WatchedConnections implements HttpConnectionFactory<ManagedHttpClientConnection> {
    private static final AtomicLong IDS = new AtomicLong();

    private final Map<SocketAddress, Watched> lastReleased = new ConcurrentHashMap<>();
    /** Per address that closed an idle connection: the idle time from which background checks are not trusted. */
    private final Map<SocketAddress, Long> closesIdleAfter = new ConcurrentHashMap<>();
    private final AtomicLong leaseTimeChecks = new AtomicLong();
    /** Per thread: its current lease's rules and outcome (the pool leases on the caller's thread). */
    private final ThreadLocal<LeaseNote> notes = ThreadLocal.withInitial(LeaseNote::new);
    private final LongSupplier nanoTime;
    private final ReadGaps readGaps;
    private final long uncheckedNanos;
    private final long watchedNanos;
    private final long trustNanos;

    WatchedConnections(long uncheckedNanos, long watchedNanos, long trustNanos, LongSupplier nanoTime,
            ReadGaps readGaps) {
        this.readGaps = readGaps;
        this.uncheckedNanos = uncheckedNanos;
        this.watchedNanos = watchedNanos;
        this.trustNanos = trustNanos;
        this.nanoTime = nanoTime;
    }

    @Override
    public ManagedHttpClientConnection createConnection(Socket socket) throws IOException {
        Watched connection = new Watched("upstream-" + IDS.incrementAndGet());
        if (socket != null) {
            connection.bind(socket);
        }
        return connection;
    }

    /** Checks the last-released connection of each upstream address while it is idle in the watched window. */
    void sweep() {
        lastReleased.values().forEach(Watched::checkIfDue);
    }

    /**
     * Starts one exchange on this thread. {@code trustChecks} false: only the unchecked window applies, as
     * before background checks existed (a request that must not be sent twice).
     */
    void beforeLease(boolean trustChecks) {
        LeaseNote note = notes.get();
        note.trustChecks = trustChecks;
        note.unchecked = false;
    }

    /** Whether this thread's lease since {@link #beforeLease} reused a connection without checking it then. */
    boolean leasedUnchecked() {
        return notes.get().unchecked;
    }

    /** The reuse rules' clock (tests move it). */
    long nanoTime() {
        return nanoTime.getAsLong();
    }

    /** How many leases waited for the 1 ms check (tests: the background check saved those). */
    long leaseTimeChecks() {
        return leaseTimeChecks.get();
    }

    /** A thread that leases without {@link #beforeLease} trusts no background check. */
    private static final class LeaseNote {
        boolean trustChecks;
        boolean unchecked;
    }

    /**
     * N-7: each upstream connection's buffers. HttpClient's default is 32 KiB for each of three (the read buffer,
     * its line buffer, the write buffer): 96 KiB of heap per connection, 98 MB for the 1,000 connections of 1,000
     * held streams (heap dump of the hold), kept while they wait in the pool. Relayed reads are 8 KiB anyway
     * ({@code StreamRelay}); a longer header line or request body than the buffer is still read and written whole.
     */
    static final Http1Config HTTP1 = Http1Config.custom().setBufferSize(8 * 1024).build();

    private final class Watched extends DefaultManagedHttpClientConnection {
        private final ReentrantLock lock = new ReentrantLock();
        /** When its last exchange ended cleanly (or it was opened): the upstream's idle timer starts here. */
        private volatile long releasedAt = nanoTime.getAsLong();
        /** How long it had been idle when a background check last found it alive; -1: not checked since release. */
        private volatile long aliveAtIdle = -1;
        private volatile boolean idle;
        private volatile SocketAddress remote;
        private volatile ReadGaps.Gap gap;

        Watched(String id) {
            super(id, null, null, HTTP1, null, null, null, WholeHeadParser.FACTORY);
        }

        @Override
        public void bind(Socket socket) throws IOException {
            bind(new GapTimedSocket(socket));
        }

        @Override
        public void bind(SSLSocket sslSocket, Socket socket) throws IOException {
            bind(new GapTimedSocket(sslSocket, socket));
        }

        /** A chunked body says when its next chunk is already here (a stream relay writes such frames together). */
        @Override
        protected InputStream createContentInputStream(long length, SessionInputBuffer buffer, InputStream socket) {
            return length == ContentLengthStrategy.CHUNKED ? ChunkedBody.of(buffer, socket, HTTP1)
                    : super.createContentInputStream(length, buffer, socket);
        }

        /**
         * P-4: HttpClient sets the read timeout here (the pool's default, then each exchange's own); it
         * becomes the gap {@link ReadGaps} keeps, and the socket itself reads without a timeout.
         */
        @Override
        public void setSocketTimeout(Timeout timeout) {
            ReadGaps.Gap watched = gap;
            if (watched != null) {
                watched.limit(Timeout.isPositive(timeout) ? timeout.toNanoseconds() : 0);
            }
            super.setSocketTimeout(Timeout.DISABLED);
        }

        @Override
        public void passivate() {
            super.passivate();
            lock.lock();
            try {
                releasedAt = nanoTime.getAsLong();
                aliveAtIdle = -1;
                idle = true;
            } finally {
                lock.unlock();
            }
            if (remote == null) {
                remote = getRemoteAddress();
            }
            if (remote != null) {
                lastReleased.put(remote, this);
            }
        }

        /** The pool asks this on every lease; the lock waits out a background check in progress (≤ 1 ms). */
        @Override
        public boolean isStale() throws IOException {
            lock.lock();
            try {
                idle = false;
                if (!isOpen()) {
                    return true;
                }
                LeaseNote note = notes.get();
                if (vouchedFor(nanoTime.getAsLong(), note.trustChecks)) {
                    note.unchecked = true;
                    return false;
                }
                leaseTimeChecks.incrementAndGet();
                return super.isStale();
            } finally {
                lock.unlock();
            }
        }

        /**
         * Reused unchecked: idle briefly, or a fresh background check covers it (if this lease trusts checks
         * and as far as its address allows).
         */
        private boolean vouchedFor(long now, boolean trustChecks) {
            long idleFor = now - releasedAt;
            return idleFor < uncheckedNanos || trustChecks
                    && idleFor < trustChecksUnder() && aliveAtIdle >= 0 && idleFor - aliveAtIdle < trustNanos;
        }

        void checkIfDue() {
            long now = nanoTime.getAsLong();
            long idleFor = now - releasedAt;
            // start early enough that a check is fresh when the unchecked window ends
            boolean due = idle && idleFor >= uncheckedNanos - trustNanos && idleFor < watchedNanos;
            if (!due || !lock.tryLock()) {
                return; // not at risk yet, past the watched window, or being leased right now
            }
            try {
                if (!idle || !isOpen()) {
                    return; // leased since the sweep looked, or closed here (evicted)
                }
                if (super.isStale()) {
                    learnThatIdleConnectionsClose();
                    close(CloseMode.IMMEDIATE); // the pool discards it at its next lease (not open)
                } else {
                    aliveAtIdle = nanoTime.getAsLong() - releasedAt;
                }
            } catch (IOException e) {
                learnThatIdleConnectionsClose();
                close(CloseMode.IMMEDIATE);
            } finally {
                lock.unlock();
            }
        }

        private long trustChecksUnder() {
            Long closes = remote == null ? null : closesIdleAfter.get(remote);
            return closes == null ? watchedNanos : Math.min(watchedNanos, closes);
        }

        /** Found closed while idle: never trust a check past the idle time it was last seen alive at. */
        private void learnThatIdleConnectionsClose() {
            if (remote != null) {
                closesIdleAfter.merge(remote, Math.max(uncheckedNanos, aliveAtIdle), Math::min);
            }
        }

        @Override
        public void close(CloseMode mode) {
            forget();
            super.close(mode);
        }

        @Override
        public void close() throws IOException {
            forget();
            super.close();
        }

        private void forget() {
            ReadGaps.Gap watched = gap;
            if (watched != null) {
                watched.end();
            }
            idle = false;
            if (remote != null) {
                lastReleased.remove(remote, this);
            }
        }

        /** The bound socket, its reads timed by this connection's gap (watched from the bind on). */
        private final class GapTimedSocket extends SocketHolder {
            GapTimedSocket(Socket socket) {
                super(socket);
                gap = readGaps.watch(() -> close(CloseMode.IMMEDIATE));
            }

            GapTimedSocket(SSLSocket sslSocket, Socket socket) {
                super(sslSocket, socket);
                gap = readGaps.watch(() -> close(CloseMode.IMMEDIATE));
            }

            @Override
            protected InputStream getInputStream(Socket socket) throws IOException {
                return gap.timing(super.getInputStream(socket));
            }
        }
    }
}
