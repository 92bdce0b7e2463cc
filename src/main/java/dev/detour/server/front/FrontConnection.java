package dev.detour.server.front;

import dev.detour.gateway.port.Header;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection on the front, served on its own thread with blocking reads and writes: request after
 * request while each is in the front's subset for the handler's paths; at the first that is not (a console page,
 * a chunked body, anything unusual) the connection and every byte read from it go to Jetty, which serves it from
 * then on. Reads wait at most the client timeout (a trusted proxy's connection: the answer's idle time), timed by
 * the front's watchdog rather than a socket timeout (see {@link ClientInput}).
 */
final class FrontConnection implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(FrontConnection.class);
    private static final byte[] INTERNAL_ERROR = "{\"error\":{\"type\":\"server_error\",\"message\":\"internal error\"}}"
            .getBytes(StandardCharsets.US_ASCII);

    private final FrontServer server;
    private final SocketChannel channel;
    private final InetAddress peerAddress;
    private final String peer;
    private final boolean trusted;
    private final FrontHandler handler;
    /** Jetty's input buffer size: what the front reads before it knows who serves a request fits Jetty's. */
    private final byte[] buffer = new byte[RequestHeadParser.MAX_HEAD];
    private int start;
    private int end;
    private InputStream in;
    private boolean handedOff;
    /** When the write in progress began ({@link System#nanoTime()}), 0 when none is. */
    private volatile long writingSince;
    /** When the read in progress began ({@link System#nanoTime()}), 0 when none is. */
    private volatile long readingSince;
    /** Set by the watchdog when it ended a read that had waited past the read timeout. */
    private volatile boolean readTimedOut;
    private volatile boolean admitted;
    /** Set by the gone watch: the client closed, or sent more than the buffer holds while it waited. */
    private volatile boolean unusable;
    /** N-7: bytes a write without waiting could not leave (see {@link #writeWithoutWaiting}); null when none. */
    private ByteBuffer keptBack;
    /** This answer is relayed as it comes, its thread raised to normal priority until it ends. */
    private boolean raised;

    FrontConnection(FrontServer server, SocketChannel channel, InetAddress peerAddress, String peer, boolean trusted,
            FrontHandler handler) {
        this.server = server;
        this.channel = channel;
        this.peerAddress = peerAddress;
        this.peer = peer;
        this.trusted = trusted;
        this.handler = handler;
    }

    @Override
    public void run() {
        try {
            Socket socket = channel.socket();
            socket.setTcpNoDelay(true);
            in = new ClientInput(socket.getInputStream());
            while (serveNext()) {
                // the next request on this connection
            }
        } catch (IOException e) {
            log.debug("front connection from {} ended: {}", peer, e.toString());
        } catch (RuntimeException e) {
            log.warn("front connection from {} failed", peer, e);
        } finally {
            if (!handedOff) {
                closeNow();
            }
            server.ended(this);
        }
    }

    /** @return true when the connection may carry another request */
    private boolean serveNext() throws IOException {
        RequestHead head;
        try {
            head = readHead();
        } catch (RequestHeadParser.NotServed notServed) {
            handOff();
            return false;
        }
        if (head == null) {
            return false;
        }
        if (!handler.serves(head.path())) {
            handOff();
            return false;
        }
        return serve(head);
    }

    /** The next whole head, or null when the client closed or stayed silent past the read timeout. */
    private RequestHead readHead() throws IOException, RequestHeadParser.NotServed {
        while (true) {
            RequestHead head = RequestHeadParser.parse(buffer, start, end);
            if (head != null) {
                return head;
            }
            if (end == buffer.length) { // fewer than MAX_HEAD bytes from start, or the parser would have said so
                System.arraycopy(buffer, start, buffer, 0, end - start);
                end -= start;
                start = 0;
            }
            int n;
            try {
                n = in.read(buffer, end, buffer.length - end);
            } catch (SocketTimeoutException e) {
                return null; // silent too long between requests or within a head: closed, as Jetty does
            }
            if (n < 0) {
                return null;
            }
            end += n;
        }
    }

    private boolean serve(RequestHead head) {
        server.requestStarted();
        try {
            int bodyStart = start + head.length();
            BoundedBody body = new BoundedBody(in, buffer, bodyStart, end, Math.max(0, head.contentLength()),
                    server.pace());
            SocketResponseSink sink = new SocketResponseSink(this);
            if (head.close() || server.draining()) {
                sink.closeAfter();
            }
            try {
                handler.serve(new FrontExchange(head, peer, body, sink, this));
            } catch (RuntimeException e) {
                log.warn("front request {} {} failed", head.method(), head.path(), e);
                internalError(sink);
                return false;
            }
            boolean again = sink.finish() && body.remaining() == 0 && !unusable;
            if (!again) {
                return false;
            }
            start = body.endInBuffer();
            if (start == end) {
                start = 0;
                end = 0;
            }
            admitted = false;
            return true;
        } finally {
            lowerAgain();
            server.requestEnded();
        }
    }

    /**
     * N-7: an answer relayed as it comes (a stream's frames) runs at normal priority for as long as it lasts, from
     * the moment its request is seen to ask for one (routing, waiting for the first frame) or its first chunk leaves,
     * where its thread is a platform one lowered for the event writer's sake ({@link FrontServer}'s thread priority,
     * nice 10 under the production flags): a frame is a few microseconds of work a client waits for, and among nice-0
     * neighbours the lowered threads lose the cores (1,000 held streams on Java 17 with whole requests at nice 10
     * rather than 0: 11 % fewer completed, 12 % fewer receiving; raising from the first chunk alone measured within
     * noise: docs/performance.md, sessions 46–47). The writer has one event per stream to store, not per frame.
     * Going back up needs the right to (root, CAP_SYS_NICE, or the systemd unit's {@code LimitNICE=+0}); without it
     * the JVM's call changes nothing. A virtual thread cannot be raised alone: it runs at its carrier's priority,
     * lowered as the platform threads are ({@link dev.detour.server.CarrierPriority}); once a stream is held its frames
     * leave through the stream pump, a thread at normal priority.
     */
    void relayingAsItComes() {
        Thread thread = Thread.currentThread();
        if (thread.getPriority() < Thread.NORM_PRIORITY) { // once raised it is not below normal
            thread.setPriority(Thread.NORM_PRIORITY);
            raised = true;
        }
    }

    private void lowerAgain() {
        if (raised) {
            raised = false;
            Thread.currentThread().setPriority(server.threadPriority());
        }
    }

    private static void internalError(SocketResponseSink sink) {
        if (sink.committed()) {
            sink.abort();
            return;
        }
        sink.closeAfter();
        sink.begin(500, List.of(new Header("Content-Type", "application/json")));
        try {
            sink.writeWhole(INTERNAL_ERROR);
        } catch (dev.detour.gateway.port.ResponseSink.ClientGoneException ignored) {
            // the client went away too
        }
    }

    /** Jetty takes the connection with what was read of it; this thread is done with it. */
    private void handOff() {
        handedOff = true;
        server.handOff(this, ByteBuffer.wrap(Arrays.copyOfRange(buffer, start, end)));
    }

    /**
     * Writes every byte of the buffers, blocking; the watchdog sees how long it has been blocked. While a pump relays
     * to this connection ({@link #writeWithoutWaiting}) it writes what the socket takes at once and keeps the rest.
     */
    void write(ByteBuffer[] buffers) throws IOException {
        long left = 0;
        for (ByteBuffer b : buffers) {
            left += b.remaining();
        }
        if (keptBack != null) {
            keep(buffers, left);
            return;
        }
        long now = System.nanoTime();
        writingSince = now == 0 ? 1 : now;
        try {
            while (left > 0) {
                long n = channel.write(buffers);
                if (n == 0 && !channel.isBlocking()) {
                    keep(buffers, left);
                    return;
                }
                left -= n;
            }
        } finally {
            writingSince = 0;
        }
    }

    /**
     * N-7: writes leave without waiting for the client from now on (a pump's thread writes them), what the socket
     * does not take at once kept back in order; {@link #writeBlocking} ends that.
     */
    void writeWithoutWaiting() throws IOException {
        keptBack = null;
        channel.configureBlocking(false);
    }

    /** Whether a write since {@link #writeWithoutWaiting} kept bytes back. */
    boolean keptBytesBack() {
        return keptBack != null;
    }

    /** Blocking writes again, what was kept back written first. */
    void writeBlocking() throws IOException {
        channel.configureBlocking(true);
        ByteBuffer kept = keptBack;
        keptBack = null;
        if (kept != null) {
            write(new ByteBuffer[] {kept});
        }
    }

    private void keep(ByteBuffer[] buffers, long left) {
        ByteBuffer kept = keptBack == null ? ByteBuffer.allocate(0) : keptBack;
        ByteBuffer all = ByteBuffer.allocate(kept.remaining() + (int) left);
        all.put(kept);
        for (ByteBuffer b : buffers) {
            all.put(b);
        }
        keptBack = all.flip();
    }

    /**
     * The socket's input with the read timeout kept by the watchdog ({@link #timeOutStalledRead}) instead of a socket
     * timeout: the JDK reads a blocking channel with a timeout by switching the socket to non-blocking and back
     * around every read (two fcntl calls, a read that finds nothing and a poll, where an untimed read is one call;
     * 10 % of Detour's CPU per buffered request at Java 17's plateau, docs/performance.md session 45), and on JDK 21+
     * a timed park schedules and cancels a timer per read. A read the watchdog ends throws
     * {@link SocketTimeoutException}, as a socket timeout did.
     */
    private final class ClientInput extends InputStream {
        private final InputStream socket;

        ClientInput(InputStream socket) {
            this.socket = socket;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            if (readTimedOut) {
                throw timedOut();
            }
            long now = System.nanoTime();
            readingSince = now == 0 ? 1 : now;
            int n;
            try {
                n = socket.read(bytes, offset, length);
            } catch (IOException e) {
                if (readTimedOut) {
                    throw timedOut();
                }
                throw e;
            } finally {
                readingSince = 0;
            }
            if (n < 0 && readTimedOut) {
                throw timedOut();
            }
            return n;
        }

        @Override
        public int available() throws IOException {
            return readTimedOut ? 0 : socket.available();
        }

        private SocketTimeoutException timedOut() {
            return new SocketTimeoutException("the client sent nothing for "
                    + server.readTimeoutMillis(trusted) + " ms");
        }
    }

    /**
     * The watchdog's question about reads: has a read waited longer than this connection's read timeout? Then its
     * input is shut (the blocked read returns, and throws {@link SocketTimeoutException}); the output stays open,
     * so a request whose body stalled can still be answered 408.
     */
    boolean timeOutStalledRead(long nowNanos, long limitNanos) {
        long since = readingSince;
        if (since == 0 || nowNanos - since <= limitNanos || bytesWaiting()) {
            return false;
        }
        if (readTimedOut) { // shut a round ago and still blocked: closing ends any read
            closeNow();
            return false;
        }
        readTimedOut = true;
        try {
            channel.shutdownInput();
        } catch (IOException e) {
            closeNow(); // closed already, or not shut: either way the read ends
        }
        return true;
    }

    /** Bytes arrived that the read has not taken yet: it is about to return, not stalled. */
    private boolean bytesWaiting() {
        try {
            return channel.socket().getInputStream().available() > 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The watchdog's question: has a write been blocked longer than this connection's limit (the answer's idle
     * time once the request was admitted or for a trusted proxy, the client timeout before)? Then it is closed.
     */
    boolean closeIfWriteStalled(long nowNanos, long clientTimeoutNanos, long answerIdleNanos) {
        long since = writingSince;
        long limit = admitted || trusted ? answerIdleNanos : clientTimeoutNanos;
        if (since == 0 || nowNanos - since <= limit) {
            return false;
        }
        log.info("closing the connection from {}: its client has read nothing for {} s", peer, limit / 1_000_000_000L);
        closeNow();
        return true;
    }

    /** L-2: see {@link GoneWatcher}. */
    Runnable watchGone(Runnable gone) {
        return server.goneWatcher().watch(this, gone);
    }

    /** Bytes the client sent while its request waited (the gone watch read them): kept for the next request. */
    void stash(ByteBuffer bytes) {
        int n = bytes.remaining();
        if (n > buffer.length - end) {
            unusable = true; // more than a head's worth sent unasked: not worth keeping the connection for
            return;
        }
        bytes.get(buffer, end, n);
        end += n;
    }

    /** The client closed while its request waited: no answer is read, no next request comes. */
    void clientGone() {
        unusable = true;
    }

    void admitted() {
        admitted = true;
    }

    boolean draining() {
        return server.draining();
    }

    SocketChannel channel() {
        return channel;
    }

    InetAddress peerAddress() {
        return peerAddress;
    }

    boolean trusted() {
        return trusted;
    }

    void closeNow() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closed is what was wanted
        }
    }
}
