package dev.detour.adapter.upstream;

import dev.detour.config.Switch;
import dev.detour.gateway.port.NonBlockingClient;
import dev.detour.gateway.port.UpstreamResponse;
import java.io.IOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * N-7: one selector thread waits for the next bytes of every stream handed to it and relays them itself, while each
 * stream's own thread sleeps until the stream is given back. On Java 17 a platform thread per stream woke for every
 * frame (1,000 held streams at 50 frames/s: 50,000 wake-ups and context switches a second, a third of the relay's
 * CPU in session 46's profile); on JDK 21+ a virtual thread per stream is unparked, scheduled and mounted for every
 * frame. One selector wakes once for all that arrived together: a held stream costs 40 % less CPU on Java 17 and
 * 15 % less on JDK 25, and new streams under that load get their first frame 10× sooner (docs/performance.md,
 * session 48).
 *
 * <p>The pump only relays what needs no wait: a stream goes back to its thread, its sockets blocking again, as soon
 * as its body cannot go on without a blocking read (its end, which returns the connection to the pool; a failure;
 * a framing line cut in two), its relay says so (its client did not take a write at once), or its connection was
 * closed under it (the read gap's cut, which the pump notices within {@value #SCAN_MILLIS} ms, or an abort). Its
 * thread then goes on exactly as it would have without the pump.
 */
final class StreamPump implements Runnable, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StreamPump.class);
    /** How often the pump looks for streams whose connection was closed under it. */
    static final long SCAN_MILLIS = 100;

    /** An upstream body as the pump reads it (see {@link Http1Response#pump}). */
    interface Upstream {
        SocketChannel channel();

        /** Non-blocking while pumped; blocking again after (called on the stream's thread). */
        void pumped(boolean on) throws IOException;

        /** Reads what arrived without waiting: the bytes read, -1 once it ended or failed. */
        int takeArrived();

        /** Whether bytes wait that the socket will not announce: the TLS layer's (a read takes them at once). */
        boolean holdsUnread();

        /** Whether the body can go on without a blocking read. */
        boolean goesOn();

        /** The pump waits for its next bytes from now (the read gap counts). */
        void waiting();
    }

    private final Selector selector;
    private final ConcurrentLinkedQueue<Stream> arriving = new ConcurrentLinkedQueue<>();
    /** The pump's thread only: streams registered, and streams to give back at the end of the round. */
    private final Set<Stream> pumped = new HashSet<>();
    private final Set<Stream> leaving = new HashSet<>();
    private volatile boolean open = true;
    private volatile long streams;

    private StreamPump() throws IOException {
        selector = Selector.open();
    }

    /** A pump on its own thread, at normal priority (it relays the frames clients wait for). */
    static StreamPump start() throws IOException {
        StreamPump pump = new StreamPump();
        Thread thread = new Thread(pump, "detour-stream-pump");
        thread.setDaemon(true);
        thread.setPriority(Thread.NORM_PRIORITY);
        thread.start();
        return pump;
    }

    /**
     * Whether upstream clients pump their streams: yes, unless {@code DETOUR_STREAM_PUMP=0} (or
     * {@code -Ddetour.streamPump=false}) turns it off, a way back should a stream misbehave through it.
     */
    static boolean wanted() {
        return Switch.on("detour.streamPump", "DETOUR_STREAM_PUMP");
    }

    /**
     * On the stream's thread: the pump relays the stream until it gives it back, then this returns with both sockets
     * blocking again.
     *
     * @return false when the pump did not take the stream (closed, or a socket could not be switched)
     */
    boolean relay(Upstream upstream, NonBlockingClient client, UpstreamResponse.Arrivals arrivals) {
        if (!open) {
            return false;
        }
        try {
            upstream.pumped(true);
        } catch (IOException e) {
            blockingAgain(upstream);
            return false;
        }
        try {
            client.start();
        } catch (IOException e) {
            blockingAgain(upstream);
            client.stop();
            return false;
        }
        Stream stream = new Stream(upstream, client, arrivals, Thread.currentThread());
        arriving.add(stream);
        if (!open && arriving.remove(stream)) {
            stream.back = true; // closed meanwhile: the pump's thread will not see it
        } else {
            selector.wakeup();
        }
        boolean interrupted = false;
        while (!stream.back) {
            LockSupport.park(this);
            interrupted |= Thread.interrupted(); // kept for the caller: the stream is the pump's until given back
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        blockingAgain(upstream);
        client.stop();
        return true;
    }

    private static void blockingAgain(Upstream upstream) {
        try {
            upstream.pumped(false);
        } catch (IOException | RuntimeException e) {
            // closed under the pump (or still registered, the pump having failed): the next read fails
        }
    }

    /** How many streams the pump took so far (tests, metrics). */
    long streams() {
        return streams;
    }

    @Override
    public void run() {
        long lastScan = System.nanoTime();
        try {
            while (open) {
                try {
                    selector.select(SCAN_MILLIS);
                    for (Stream stream; (stream = arriving.poll()) != null; ) {
                        enter(stream);
                    }
                    Set<SelectionKey> selected = selector.selectedKeys();
                    for (SelectionKey key : selected) {
                        if (key.isValid()) {
                            step((Stream) key.attachment());
                        }
                    }
                    selected.clear();
                    long now = System.nanoTime();
                    if (now - lastScan >= TimeUnit.MILLISECONDS.toNanos(SCAN_MILLIS)) {
                        lastScan = now;
                        for (Stream stream : pumped) {
                            if (!stream.upstream.channel().isOpen()) {
                                leaving.add(stream); // cut by the read gap or aborted: its thread finds out
                            }
                        }
                    }
                    giveBack();
                } catch (IOException | RuntimeException e) {
                    log.warn("the stream pump failed a round: {}", e.toString());
                    leaving.addAll(pumped); // whatever went wrong, each stream's thread can still go on
                    giveBack();
                }
            }
        } catch (ClosedSelectorException e) {
            // closed: every stream is given back below
        } finally {
            open = false;
            for (Stream stream; (stream = arriving.poll()) != null; ) {
                leaving.add(stream);
            }
            leaving.addAll(pumped);
            try {
                giveBack();
            } catch (ClosedSelectorException e) {
                for (Stream stream : leaving) {
                    stream.giveBack(); // the selector is gone, and its registrations with it
                }
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // stopping
            }
        }
    }

    private void enter(Stream stream) throws IOException {
        streams++;
        try {
            stream.key = stream.upstream.channel().register(selector, SelectionKey.OP_READ, stream);
        } catch (java.nio.channels.ClosedChannelException | java.nio.channels.IllegalBlockingModeException e) {
            leaving.add(stream);
            return;
        }
        pumped.add(stream);
        stream.upstream.waiting();
        step(stream); // bytes that came before the registration, or a body that cannot go on at all
    }

    /**
     * What arrived for a stream, relayed; given back when it cannot go on here. Again while its connection holds
     * bytes the socket will not announce (TLS records decrypted or read ahead): each round takes some of them or
     * gives the stream back, its read buffer being full with nothing to relay.
     */
    private void step(Stream stream) {
        Upstream upstream = stream.upstream;
        do {
            int arrived = upstream.takeArrived();
            if (arrived < 0 || !upstream.goesOn() || !stream.arrivals.arrived() || !upstream.goesOn()) {
                leaving.add(stream);
                return;
            }
            if (arrived > 0) {
                upstream.waiting();
            }
        } while (upstream.holdsUnread());
    }

    /** Deregisters the round's leaving streams, so their threads can make their sockets blocking, and wakes them. */
    private void giveBack() {
        if (leaving.isEmpty()) {
            return;
        }
        for (Stream stream : leaving) {
            if (stream.key != null) {
                stream.key.cancel();
            }
            pumped.remove(stream);
        }
        try {
            selector.selectNow(); // a cancelled key leaves the selector at its next selection
        } catch (IOException e) {
            log.warn("the stream pump could not deregister streams: {}", e.toString()); // their reads will fail
        }
        for (Stream stream : leaving) {
            stream.giveBack();
        }
        leaving.clear();
    }

    /** Gives every stream back and stops: its threads read on, blocking, as without a pump. */
    @Override
    public void close() {
        open = false;
        selector.wakeup();
    }

    private static final class Stream {
        final Upstream upstream;
        final NonBlockingClient client;
        final UpstreamResponse.Arrivals arrivals;
        final Thread thread;
        SelectionKey key;
        volatile boolean back;

        Stream(Upstream upstream, NonBlockingClient client, UpstreamResponse.Arrivals arrivals, Thread thread) {
            this.upstream = upstream;
            this.client = client;
            this.arrivals = arrivals;
            this.thread = thread;
        }

        void giveBack() {
            back = true;
            LockSupport.unpark(thread);
        }
    }
}
