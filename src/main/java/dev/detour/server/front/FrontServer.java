package dev.detour.server.front;

import dev.detour.server.ConnectionCap;
import dev.detour.server.MinimumBodyRate;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.util.HostPort;
import org.eclipse.jetty.util.VirtualThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * N-8: the public port's first reader. One thread per client connection with blocking reads and writes serves the
 * relay's plain requests (bench/stack-ceiling.sh: this model forwards 1.2–1.8× as fast as Jetty's selector model on
 * two cores, and a stream's frame leaves without a hand-over between threads) — a platform thread at the request
 * threads' low priority for the first few at once, virtual threads beyond them where the JVM has them
 * ({@link #connectionThreads}); every connection whose request is outside the front's subset, or for another path,
 * goes to Jetty with the bytes read so far ({@link JettyHandOff}), and so do connections beyond
 * {@link #MAX_CONNECTIONS} (Jetty holds an idle connection without a thread).
 *
 * <p>It keeps Jetty's guards: the per-address connection cap at accept, the client timeout on every read
 * (trusted proxies: the answer's idle time), the minimum body rate, a watchdog closing connections whose write has
 * been blocked for longer than their idle time, and the drain (D-3): on stop it stops accepting, answers a request
 * arriving on a kept-alive connection with a refusal that closes it, and waits for the requests in flight.
 */
public final class FrontServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(FrontServer.class);
    /** Connections with a thread of their own; more go to Jetty. Jetty's pool has 2,048 threads. */
    static final int MAX_CONNECTIONS = 2048;
    /** Connections at once on platform threads; on JDK 21+ more run on virtual threads ({@link #connectionThreads}). */
    static final int PLATFORM_CONNECTIONS = 8;

    private final InetSocketAddress bind;
    private final FrontHandler handler;
    private final JettyHandOff jetty;
    private final ConnectionCap cap;
    private final MinimumBodyRate bodyRate;
    private final long clientTimeoutMillis;
    private final long answerIdleMillis;
    private final int threadPriority;
    private final Set<FrontConnection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger threadNumber = new AtomicInteger();
    private final LongAdder served = new LongAdder();
    private final LongAdder handedOff = new LongAdder();
    private final Object inFlightLock = new Object();
    private int inFlight;
    private volatile boolean draining;
    private ServerSocketChannel listener;
    private ExecutorService threads;
    private ScheduledExecutorService watchdog;
    private GoneWatcher goneWatcher;

    /**
     * @param cap            X-4's per-address cap (trusted proxies exempt), or null for none
     * @param bodyRate       X-4's minimum body rate
     * @param clientTimeout  how long a read may wait for the client (a head, a body, the next request)
     * @param answerIdle     how long an admitted answer's write may stay blocked ({@code AnswerIdle.ANSWER})
     * @param threadPriority the connection threads' priority where they are platform threads (JettyServer's for
     *                       request threads)
     */
    public FrontServer(InetSocketAddress bind, FrontHandler handler, JettyHandOff jetty, ConnectionCap cap,
            MinimumBodyRate bodyRate, Duration clientTimeout, Duration answerIdle, int threadPriority) {
        this.bind = bind;
        this.handler = handler;
        this.jetty = jetty;
        this.cap = cap;
        this.bodyRate = bodyRate;
        this.clientTimeoutMillis = clientTimeout.toMillis();
        this.answerIdleMillis = answerIdle.toMillis();
        this.threadPriority = threadPriority;
    }

    /** Binds the public port and starts accepting. */
    public void start(int acceptQueue) throws IOException {
        listener = ServerSocketChannel.open();
        listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        listener.bind(bind, acceptQueue);
        threads = connectionThreads(VirtualThreads.areSupported());
        goneWatcher = new GoneWatcher();
        watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "detour-front-watchdog");
            t.setDaemon(true);
            return t;
        });
        long round = watchdogRoundMillis();
        watchdog.scheduleWithFixedDelay(() -> closeStalled(System.nanoTime()), round, round, TimeUnit.MILLISECONDS);
        Thread acceptor = new Thread(this::acceptLoop, "detour-front-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Where each connection runs: the first {@link #PLATFORM_CONNECTIONS} at once on platform threads at
     * {@code threadPriority} (the lowest: nice 10 under the production flags, so the event writer keeps pace; idle
     * ones wait a minute for the next connection, as a client that reconnects often reuses one). Beyond them, on
     * JDK 21+, virtual threads; on Java 17 more platform threads. A platform thread wakes straight from its blocking
     * read, a virtual one through the poller and then a carrier: two wake-ups instead of one, each dear on this VM.
     * Measured on JDK 25 (docs/performance.md, sessions 43–44): all-virtual completed 15 % more of 1,000 held
     * streams than all-platform, at 30 % less CPU each and 150 MiB less RSS, but added 0.110–0.154 ms to a request
     * at concurrency 1; 8 platform threads first added 0.066–0.083 ms, the held and buffered figures alike.
     */
    private ExecutorService connectionThreads(boolean virtual) {
        Executor beyond = virtual ? VirtualThreads.getNamedVirtualThreadsExecutor("detour-front-v") : null;
        return new ThreadPoolExecutor(0, virtual ? PLATFORM_CONNECTIONS : Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
                new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "detour-front-" + threadNumber.incrementAndGet());
                    t.setDaemon(true);
                    t.setPriority(threadPriority);
                    return t;
                }, (connection, pool) -> {
                    if (beyond == null || pool.isShutdown()) {
                        throw new RejectedExecutionException("the front is stopping");
                    }
                    beyond.execute(connection);
                });
    }

    /** The priority its platform connection threads run at between answers relayed as they come. */
    int threadPriority() {
        return threadPriority;
    }

    /** Requests the front served itself. */
    public long servedCount() {
        return served.sum();
    }

    /** Connections the front passed to Jetty. */
    public long handOffCount() {
        return handedOff.sum();
    }

    public int port() {
        return listener.socket().getLocalPort();
    }

    private void acceptLoop() {
        while (listener.isOpen()) {
            SocketChannel channel;
            try {
                channel = listener.accept();
            } catch (ClosedChannelException e) {
                return; // stopping
            } catch (IOException e) {
                log.warn("front accept failed: {}", e.toString());
                continue;
            }
            try {
                accepted(channel);
            } catch (IOException | RuntimeException e) {
                log.debug("front connection dropped at accept: {}", e.toString());
                close(channel);
            }
        }
    }

    private void accepted(SocketChannel channel) throws IOException {
        InetAddress address = ((InetSocketAddress) channel.getRemoteAddress()).getAddress();
        if (connections.size() >= MAX_CONNECTIONS) {
            handedOff.increment();
            jetty.take(channel, ByteBuffer.allocate(0)); // Jetty counts it against the cap itself
            return;
        }
        ConnectionCap.Admission admission = cap == null ? ConnectionCap.Admission.COUNTED : cap.opened(address);
        if (admission == ConnectionCap.Admission.REFUSED) {
            close(channel);
            cap.closed(address);
            return;
        }
        FrontConnection connection = new FrontConnection(this, channel, address,
                HostPort.normalizeHost(address.getHostAddress()), admission == ConnectionCap.Admission.TRUSTED,
                handler);
        connections.add(connection);
        threads.execute(connection);
    }

    /** The connection's thread is done with it: closed, or {@link #handOff handed to Jetty}. */
    void ended(FrontConnection connection) {
        if (connections.remove(connection) && cap != null && !connection.trusted()) {
            cap.closed(connection.peerAddress());
        }
    }

    /** Jetty serves the connection from now on, starting with the bytes the front read. */
    void handOff(FrontConnection connection, ByteBuffer read) {
        handedOff.increment();
        ended(connection); // Jetty counts it against the cap from here on
        try {
            jetty.take(connection.channel(), read);
        } catch (IOException | RuntimeException e) {
            log.debug("hand-off to Jetty failed: {}", e.toString());
            connection.closeNow();
        }
    }

    /**
     * The watchdog's round: connections whose write has been blocked past their limit are closed, reads that have
     * waited past the read timeout are ended (the front's reads have no socket timeout: {@code ClientInput}).
     *
     * @return how many connections it closed or ended a read of
     */
    int closeStalled(long nowNanos) {
        long clientTimeout = TimeUnit.MILLISECONDS.toNanos(clientTimeoutMillis);
        long answerIdle = TimeUnit.MILLISECONDS.toNanos(answerIdleMillis);
        int closed = 0;
        for (FrontConnection connection : connections) {
            if (connection.closeIfWriteStalled(nowNanos, clientTimeout, answerIdle)
                    || connection.timeOutStalledRead(nowNanos,
                            TimeUnit.MILLISECONDS.toNanos(readTimeoutMillis(connection.trusted())))) {
                closed++;
            }
        }
        return closed;
    }

    /** A quarter of the shortest limit the watchdog keeps, within 10 ms … 1 s: how late at most a read times out. */
    private long watchdogRoundMillis() {
        return Math.max(10, Math.min(1000, Math.min(clientTimeoutMillis, answerIdleMillis) / 4));
    }

    long readTimeoutMillis(boolean trusted) {
        return trusted ? answerIdleMillis : clientTimeoutMillis;
    }

    MinimumBodyRate.Pace pace() {
        return bodyRate.pace();
    }

    GoneWatcher goneWatcher() {
        return goneWatcher;
    }

    boolean draining() {
        return draining;
    }

    void requestStarted() {
        served.increment();
        synchronized (inFlightLock) {
            inFlight++;
        }
    }

    void requestEnded() {
        synchronized (inFlightLock) {
            if (--inFlight == 0) {
                inFlightLock.notifyAll();
            }
        }
    }

    /**
     * D-3: stops accepting (the public port closes); a request that arrives on a kept-alive connection from now on
     * is answered as refused and its connection closed. Waits up to {@code grace} for the requests in flight.
     *
     * @return true when nothing is in flight any more
     */
    public boolean drain(Duration grace) {
        draining = true;
        close(listener);
        long deadline = System.nanoTime() + grace.toNanos();
        synchronized (inFlightLock) {
            while (inFlight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(inFlightLock, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return true;
    }

    /** Closes every connection still open (idle keep-alive ones, or ones past the drain) and the threads. */
    @Override
    public void close() {
        draining = true;
        close(listener);
        connections.forEach(FrontConnection::closeNow);
        if (watchdog != null) {
            watchdog.shutdownNow();
        }
        if (threads != null) {
            threads.shutdown(); // virtual threads need no shutting down: each ends with its connection
        }
        if (goneWatcher != null) {
            goneWatcher.close();
        }
    }

    private static void close(java.nio.channels.Channel channel) {
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException ignored) {
            // closed is what was wanted
        }
    }
}
