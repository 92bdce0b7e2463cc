package dev.detour.server;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import org.eclipse.jetty.io.Connection;

/**
 * at most {@code maxPerAddress} open connections per client peer address; the one over the
 * cap is closed as soon as it opens (before a byte is read), and counted. Trusted proxies
 * (O-3 {@code DETOUR_TRUSTED_PROXIES}) are exempt: behind nginx every client shares its address,
 * and nginx keeps pooled connections open, so theirs also keep the long idle timeout.
 */
public final class ConnectionCap implements Connection.Listener {
    private final int maxPerAddress;
    private final Predicate<String> trustedProxy;
    private final long trustedIdleMillis;
    private final ConcurrentHashMap<InetAddress, Integer> open = new ConcurrentHashMap<>();
    // each counted connection's address: a closed channel no longer knows its peer
    private final ConcurrentHashMap<Connection, InetAddress> counted = new ConcurrentHashMap<>();
    private final LongAdder refused = new LongAdder();

    public ConnectionCap(int maxPerAddress, Predicate<String> trustedProxy, long trustedIdleMillis) {
        this.maxPerAddress = maxPerAddress;
        this.trustedProxy = trustedProxy;
        this.trustedIdleMillis = trustedIdleMillis;
    }

    /** What a newly opened connection from an address is: a trusted proxy's, counted, or one over the cap. */
    public enum Admission {
        TRUSTED, COUNTED, REFUSED
    }

    /**
     * Counts a connection that just opened from {@code peer}. A connection {@link Admission#REFUSED} is closed by
     * the caller at once; like every {@link Admission#COUNTED} one, it is taken off with {@link #closed} after.
     */
    public Admission opened(InetAddress peer) {
        if (trustedProxy.test(peer.getHostAddress())) {
            return Admission.TRUSTED;
        }
        if (open.merge(peer, 1, Integer::sum) > maxPerAddress) {
            refused.increment();
            return Admission.REFUSED;
        }
        return Admission.COUNTED;
    }

    /** A counted connection from {@code peer} closed (or went to another server, which counts it itself). */
    public void closed(InetAddress peer) {
        open.computeIfPresent(peer, (address, count) -> count <= 1 ? null : count - 1);
    }

    @Override
    public void onOpened(Connection connection) {
        InetAddress peer = peer(connection);
        if (peer == null) {
            return;
        }
        Admission admission = opened(peer);
        if (admission == Admission.TRUSTED) {
            connection.getEndPoint().setIdleTimeout(trustedIdleMillis);
            return;
        }
        // counted even when refused: onClosed runs for this connection too and takes it off again
        counted.put(connection, peer);
        if (admission == Admission.REFUSED) {
            connection.getEndPoint().close();
        }
    }

    @Override
    public void onClosed(Connection connection) {
        InetAddress peer = counted.remove(connection);
        if (peer != null) { // not a trusted proxy's, nor one whose peer was unknown
            closed(peer);
        }
    }

    /** Connections closed at open because their address was at the cap. */
    public long refusedCount() {
        return refused.sum();
    }

    private static InetAddress peer(Connection connection) {
        SocketAddress remote = connection.getEndPoint().getRemoteSocketAddress();
        return remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
    }
}
