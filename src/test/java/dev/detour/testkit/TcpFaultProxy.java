package dev.detour.testkit;

import dev.detour.fake.FakeUpstream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A real TCP proxy on 127.0.0.1 between Detour and an upstream (D-6): every fault is real bytes (or
 * their absence) on a real socket, so Detour's HTTP client meets it exactly as it would meet a broken
 * network or relay. Each accepted connection takes one {@link Fault}: the next one queued by
 * {@link #nextConnection}, else the standing {@link #fault}; a connection keeps its fault for its life
 * (an open keep-alive connection is not changed by a later switch — start from fresh connections).
 * {@link #refuse()} closes the port itself. Holds end on {@link #release()} or {@link #close()}, never
 * on a timer; only latency and drip are paced by the clock, as real slow links are.
 */
public final class TcpFaultProxy implements AutoCloseable {
    private static final int BUFFER = 8192;
    /**
     * How long a mid-answer reset waits after the bytes before it: an RST makes the peer's kernel drop data
     * it has received but its reader has not taken yet, so without the wait a loaded machine sometimes loses
     * the "text before the break" the fault is about. The fault's own pace, not a test waiting for time.
     */
    private static final java.time.Duration BEFORE_A_LATE_RESET = java.time.Duration.ofMillis(500);

    private final InetSocketAddress target;
    private final int port;
    private final Queue<Fault> queued = new ConcurrentLinkedQueue<>();
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger held = new AtomicInteger();
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile Fault standing = Fault.NONE;
    private volatile CountDownLatch stalls = new CountDownLatch(1);
    private volatile ServerSocket listener;
    private volatile Thread acceptor;

    private TcpFaultProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = listen(0);
        this.port = listener.getLocalPort();
        startAccepting(listener);
    }

    /** A proxy on a free loopback port forwarding to {@code 127.0.0.1:targetPort}. */
    public static TcpFaultProxy to(int targetPort) {
        try {
            return new TcpFaultProxy(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
        } catch (IOException e) {
            throw new IllegalStateException("TcpFaultProxy could not listen", e);
        }
    }

    public static TcpFaultProxy to(FakeUpstream upstream) {
        return to(upstream.port());
    }

    public int port() {
        return port;
    }

    /** The base URL to give an account instead of the upstream's own. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** The fault of every connection accepted from now on (unless one is queued). */
    public TcpFaultProxy fault(Fault fault) {
        standing = fault;
        return this;
    }

    /** Faults for the next accepted connections, one each, in order; then the standing fault again. */
    public TcpFaultProxy nextConnection(Fault... faults) {
        queued.addAll(java.util.List.of(faults));
        return this;
    }

    /** Every connection accepted from now on passes bytes unchanged. */
    public TcpFaultProxy healthy() {
        queued.clear();
        return fault(Fault.NONE);
    }

    /** Ends every stall in progress: the held answers go on. A stall that starts later waits for the next call. */
    public void release() {
        CountDownLatch old = stalls;
        stalls = new CountDownLatch(1);
        old.countDown();
    }

    /** Closes the listening port: a connect is refused (RST to the SYN) until {@link #accept()}. */
    public synchronized TcpFaultProxy refuse() {
        closeQuietly(listener);
        // A thread blocked in accept() keeps the socket listening until it has left (the JDK closes a
        // listener under a blocked accept by signalling that thread): only then is a connect refused.
        try {
            acceptor.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return this;
    }

    /** Listens on the same port again after {@link #refuse()}. */
    public synchronized TcpFaultProxy accept() {
        if (!listener.isClosed()) {
            return this;
        }
        try {
            listener = listen(port);
        } catch (IOException e) {
            throw new IllegalStateException("TcpFaultProxy could not listen on " + port + " again", e);
        }
        startAccepting(listener);
        return this;
    }

    public int connectionsAccepted() {
        return accepted.get();
    }

    /**
     * Answers a stall holds right now. A test that wants "the client leaves while the answer is held" waits for
     * this first: a {@link #release()} before the stall began would not end it.
     */
    public int held() {
        return held.get();
    }

    /** Connections accepted and not yet closed on both sides. */
    public int openConnections() {
        return links.size();
    }

    /** Releases every stall, then closes the port and every connection. */
    @Override
    public void close() {
        closing.countDown();
        stalls.countDown();
        closeQuietly(listener);
        links.forEach(Link::close);
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 256);
        return socket;
    }

    private void startAccepting(ServerSocket socket) {
        acceptor = daemon("fault-proxy-" + socket.getLocalPort() + "-accept", () -> {
            while (!socket.isClosed()) {
                try {
                    Socket client = socket.accept();
                    accepted.incrementAndGet();
                    Fault fault = queued.poll();
                    new Link(client, fault == null ? standing : fault).start();
                } catch (IOException e) {
                    return; // refused or closed
                }
            }
        });
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        try {
            if (closeable != null) {
                closeable.close();
            }
        } catch (IOException e) {
            // already gone
        }
    }

    private static void pace(java.time.Duration delay) {
        if (!delay.isZero()) {
            LockSupport.parkNanos(delay.toNanos()); // the fault's pace, not a test waiting for time
        }
    }

    /** One client connection and its upstream connection, pumped by two threads. */
    private final class Link {
        private final Socket client;
        private final Fault fault;
        private volatile Socket upstream;
        /** Half-open has fired: nothing more goes either way. */
        private volatile boolean dead;

        Link(Socket client, Fault fault) {
            this.client = client;
            this.fault = fault;
        }

        void start() {
            links.add(this);
            if (fault.kind() == Fault.Kind.HALF_OPEN && !fault.positional()) {
                dead = true;
                daemon("fault-proxy-" + port + "-swallow", this::swallowRequest);
                return;
            }
            daemon("fault-proxy-" + port + "-link", () -> {
                try {
                    upstream = new Socket();
                    upstream.setTcpNoDelay(true);
                    upstream.connect(target);
                    client.setTcpNoDelay(true);
                } catch (IOException e) {
                    close(); // the upstream itself is down: the client sees its connection closed
                    return;
                }
                daemon("fault-proxy-" + port + "-request", this::pumpRequest);
                pumpAnswer();
            });
        }

        /** Client → upstream: unchanged (latency aside) until the link dies. */
        private void pumpRequest() {
            byte[] buffer = new byte[BUFFER];
            try (InputStream in = client.getInputStream()) {
                OutputStream out = upstream.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (dead) {
                        continue; // swallowed
                    }
                    if (fault.kind() == Fault.Kind.LATENCY) {
                        pace(fault.delay());
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
                if (!dead) {
                    upstream.shutdownOutput();
                }
            } catch (IOException e) {
                // either side went away
            }
            if (!dead) {
                close();
            } else {
                awaitClosing(); // half-open: the client's connection stays as it is until the proxy closes
            }
        }

        /** Upstream → client, where the answer's faults fire. */
        private void pumpAnswer() {
            byte[] buffer = new byte[BUFFER];
            HeaderEnd headerEnd = new HeaderEnd();
            Position position = new Position(fault.positional() && !fault.fromBody() ? fault.at() : -1);
            try (InputStream in = upstream.getInputStream()) {
                OutputStream out = client.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (position.fireAt < 0 && fault.positional() && fault.fromBody()) {
                        long end = headerEnd.scan(buffer, n, position.sent);
                        position.fireAt = end < 0 ? -1 : end + fault.at();
                    }
                    int offset = 0;
                    while (offset < n) {
                        if (position.due() && !fire(out)) {
                            return;
                        }
                        int length = (int) Math.min(n - offset, position.untilFire());
                        if (fault.kind() == Fault.Kind.DRIP) {
                            length = Math.min(length, fault.bytes());
                            pace(fault.delay());
                        } else if (fault.kind() == Fault.Kind.LATENCY && offset == 0) {
                            pace(fault.delay());
                        }
                        out.write(buffer, offset, length);
                        out.flush();
                        offset += length;
                        position.sent += length;
                    }
                    if (position.due() && !fire(out)) {
                        return; // fired at a chunk's end, before the next one arrives
                    }
                }
                client.shutdownOutput(); // the upstream finished: pass its FIN on
            } catch (IOException e) {
                close();
            }
        }

        /** The positional fault, at its byte. False: this link forwards nothing more. */
        private boolean fire(OutputStream out) throws IOException {
            switch (fault.kind()) {
                case STALL -> {
                    awaitRelease();
                    return closing.getCount() > 0;
                }
                case RESET -> {
                    if (fault.at() > 0) {
                        out.flush();
                        pace(BEFORE_A_LATE_RESET);
                    }
                    reset();
                    return false;
                }
                case HALF_OPEN -> {
                    dead = true;
                    closeQuietly(upstream); // the far side is gone; the client is left hanging
                    awaitClosing();
                    return false;
                }
                case TRUNCATE -> {
                    out.flush();
                    client.shutdownOutput(); // FIN: a clean end that comes too early
                    closeQuietly(upstream);
                    return false;
                }
                default -> {
                    return true;
                }
            }
        }

        private void reset() {
            try {
                client.setSoLinger(true, 0); // close() now sends RST instead of FIN
            } catch (SocketException e) {
                // closing anyway
            }
            close();
        }

        /** Half-open from the accept on: read and drop whatever the client sends, answer nothing. */
        private void swallowRequest() {
            byte[] buffer = new byte[BUFFER];
            try (InputStream in = client.getInputStream()) {
                while (in.read(buffer) >= 0) {
                    // swallowed
                }
            } catch (IOException e) {
                // the proxy closed it
            }
            awaitClosing();
        }

        private void awaitRelease() {
            CountDownLatch gate = stalls;
            held.incrementAndGet();
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                held.decrementAndGet();
            }
        }

        private void awaitClosing() {
            try {
                closing.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            close();
        }

        void close() {
            closeQuietly(client);
            closeQuietly(upstream);
            links.remove(this);
        }
    }

    /** How far one answer has gone and where its positional fault fires (-1: not known yet, or never). */
    private static final class Position {
        long sent;
        long fireAt;
        boolean fired;

        Position(long fireAt) {
            this.fireAt = fireAt;
        }

        /** True once, when the answer stands exactly at the fault's byte. */
        boolean due() {
            if (fired || fireAt < 0 || sent != fireAt) {
                return false;
            }
            fired = true;
            return true;
        }

        /** How many bytes may go before the fault's byte. */
        long untilFire() {
            return fired || fireAt < sent ? Long.MAX_VALUE : fireAt - sent;
        }
    }

    /** Finds the end of the first header block ({@code \r\n\r\n}) across reads. */
    private static final class HeaderEnd {
        private static final byte[] MARK = {'\r', '\n', '\r', '\n'};
        private int matched;

        /** The answer offset just past the mark if it ends in this chunk (which starts at {@code base}), else -1. */
        long scan(byte[] chunk, int length, long base) {
            for (int i = 0; i < length; i++) {
                matched = chunk[i] == MARK[matched] ? matched + 1 : chunk[i] == MARK[0] ? 1 : 0;
                if (matched == MARK.length) {
                    return base + i + 1;
                }
            }
            return -1;
        }
    }
}
