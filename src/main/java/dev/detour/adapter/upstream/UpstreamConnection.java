package dev.detour.adapter.upstream;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLContext;

/**
 * One HTTP/1.1 connection to an upstream: a socket channel read and written in blocking mode (for https, through a
 * {@link TlsChannel}, the host name verified), its {@link ReadBuffer}, and what {@link ConnectionPool}'s reuse rules
 * keep about it. A pump reads it without waiting ({@link #pumped}), plain or TLS alike.
 *
 * <p>P-4 is kept by {@link ReadGaps}, not by socket timeouts: the connect, the TLS handshake and every read wait
 * without a timeout and are cut by the gap's sweep. A socket that waited with a timeout once stays non-blocking (the
 * JDK's socket implementation switches and does not switch back), which costs every later read that finds no data
 * two more system calls: a held stream's relay makes such a read for nearly every frame.
 */
final class UpstreamConnection {
    /** A request whose head and body fit in this goes out in one write. */
    private static final int ONE_WRITE = 64 * 1024;

    private final UpstreamUris.Route route;
    private final SocketChannel channel;
    private final ReadGaps.Gap gap;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Runnable onClose = () -> { };
    private ReadBuffer in;
    private OutputStream out;
    /** https: the TLS over {@link #channel}; null for http. */
    private TlsChannel tls;

    /** Held by a reuse check and a lease, so that the two never use the socket together. */
    final ReentrantLock lock = new ReentrantLock();
    /** When its last exchange ended cleanly (or it was opened): the upstream's idle timer starts here. */
    volatile long releasedAt;
    /** When it was last released, in real time ({@link System#nanoTime}): the evictor's clock. */
    volatile long idleSince = System.nanoTime();
    /** How long it had been idle when a background check last found it alive; -1: not checked since release. */
    volatile long aliveAtIdle = -1;
    /** In the pool, not leased. */
    volatile boolean idle;
    /** This lease reused it without a check (only its lessee reads this). */
    boolean reusedUnchecked;

    private UpstreamConnection(UpstreamUris.Route route, SocketChannel channel, ReadGaps gaps, long now) {
        this.route = route;
        this.channel = channel;
        this.gap = gaps.watch(this::reset);
        this.releasedAt = now;
    }

    /**
     * Connects to the route's host, trying each of its addresses in turn; for https, completes the TLS handshake.
     * Each address has {@code connectNanos} for both.
     */
    static UpstreamConnection open(UpstreamUris.Route route, long connectNanos, ReadGaps gaps, SSLContext context,
            long now) throws IOException {
        InetAddress[] addresses = InetAddress.getAllByName(route.host());
        IOException failure = null;
        for (InetAddress address : addresses) {
            UpstreamConnection connection = new UpstreamConnection(route, SocketChannel.open(), gaps, now);
            try {
                connection.connect(new InetSocketAddress(address, route.port()), connectNanos, context);
                return connection;
            } catch (IOException | RuntimeException e) {
                connection.reset();
                failure = e instanceof IOException io ? io : new IOException(e);
            }
        }
        throw failure;
    }

    private void connect(InetSocketAddress address, long connectNanos, SSLContext context) throws IOException {
        gap.limit(connectNanos);
        try {
            gap.during(() -> channel.connect(address));
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (route.tls()) {
                gap.during(() -> tls = TlsChannel.handshake(channel, context, route.host(), route.port()));
                in = new ReadBuffer(gap.timing(tls.input()));
                out = tls.output();
            } else {
                in = new ReadBuffer(gap.timing(new ChannelInput(channel)));
                out = new ChannelOutput(channel);
            }
        } catch (SocketTimeoutException e) {
            throw new Http1Failure.ConnectTimedOut("connect to " + route + " timed out", e);
        }
    }

    UpstreamUris.Route route() {
        return route;
    }

    /** Called once when it closes, however that happens (the pool's count of open connections). */
    void onClose(Runnable action) {
        this.onClose = action;
    }

    /** Starts an exchange whose reads may each wait {@code readNanos} (P-4's read timeout). */
    void startExchange(long readNanos) {
        gap.limit(readNanos);
    }

    /** Writes a request: head and body in one write when they are small enough. */
    void send(byte[] head, byte[] body) throws IOException {
        if (body == null || body.length == 0) {
            out.write(head);
        } else if (head.length + body.length <= ONE_WRITE) {
            byte[] request = new byte[head.length + body.length];
            System.arraycopy(head, 0, request, 0, head.length);
            System.arraycopy(body, 0, request, head.length, body.length);
            out.write(request);
        } else {
            out.write(head);
            out.write(body);
        }
    }

    ReadBuffer input() {
        return in;
    }

    /**
     * N-7: whether bytes wait in the TLS layer that a read takes without the socket (decrypted, or a whole record):
     * the socket will not tell a pump about them.
     */
    boolean holdsUnread() {
        return tls != null && tls.holdsUnread();
    }

    SocketChannel channel() {
        return channel;
    }

    /**
     * N-7: non-blocking while a pump waits for its bytes ({@link StreamPump}), the read gap counting from each
     * arrival ({@link #waiting}); blocking again after.
     */
    void pumped(boolean on) throws IOException {
        if (!on) {
            gap.waiting(false);
        }
        channel.configureBlocking(!on);
    }

    /** N-7: a pump waits for this connection's next bytes from now: the read gap counts. */
    void waiting() {
        gap.waiting(true);
    }

    boolean isOpen() {
        return !closed.get();
    }

    /**
     * Whether the upstream closed it while idle (or sent bytes no request asked for): one read that does not wait.
     * The caller holds {@link #lock}, so no exchange uses the channel meanwhile.
     */
    boolean closedWhileIdle() {
        if (!isOpen() || in.buffered() > 0) {
            return true;
        }
        try {
            channel.configureBlocking(false);
            try {
                return tls != null ? tls.endedOrSpoke() : channel.read(ByteBuffer.allocate(1)) != 0;
            } finally {
                channel.configureBlocking(true);
            }
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /** Closes it with a FIN: idle too long, not reusable after its answer, or the client closing. */
    void close() {
        close(false);
    }

    /** Closes it with a reset, at once, from any thread, unblocking a read in progress: an exchange dropped. */
    void reset() {
        close(true);
    }

    private void close(boolean reset) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        gap.end();
        try {
            if (reset && channel.isOpen()) {
                channel.setOption(StandardSocketOptions.SO_LINGER, 0);
            }
        } catch (IOException | RuntimeException ignored) {
            // closing anyway
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
        onClose.run();
    }

    /**
     * The channel read as a stream, the caller's array wrapped once and the wrap kept for the next read into the same
     * array (the connection's {@link ReadBuffer} is read into again and again): the channel's own socket stream wraps
     * anew at every read, an allocation per relayed frame.
     */
    private static final class ChannelInput extends BulkInput {
        private final SocketChannel channel;
        private byte[] wrapped;
        private ByteBuffer wrap;

        ChannelInput(SocketChannel channel) {
            this.channel = channel;
        }

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
            if (into != wrapped) {
                wrapped = into;
                wrap = ByteBuffer.wrap(into);
            }
            wrap.limit(offset + length).position(offset);
            return channel.read(wrap);
        }
    }

    /** The channel written as a stream: a whole array per write, as a socket's stream writes it. */
    private static final class ChannelOutput extends OutputStream {
        private final SocketChannel channel;

        ChannelOutput(SocketChannel channel) {
            this.channel = channel;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            ByteBuffer from = ByteBuffer.wrap(bytes, offset, length);
            while (from.hasRemaining()) {
                channel.write(from);
            }
        }
    }
}
