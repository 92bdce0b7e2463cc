package dev.detour.fake;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable.InvocationType;

/**
 * Sends the frames of every paced stream ({@link Reply#every}) from one thread, each when due. A
 * thread per stream sleeping between frames cost ~24 µs of CPU per frame — a whole core of the
 * bench's two at 1,000 streams, taken from the proxies it measures. The ticker wakes once for all
 * frames due together and writes without blocking: a stream's next frame is queued only when its
 * last write completed, so a slow reader delays only its own stream. Deadlines are reckoned from
 * each stream's start, so a late wake-up does not drift a stream.
 */
final class FrameTicker implements AutoCloseable {
    /** One stream in progress: the next frame to send and when. */
    private static final class Stream implements Comparable<Stream> {
        final Response response;
        final Callback done;
        final Runnable beforeLast;
        final ByteBuffer[] frames;
        final long start = System.nanoTime();
        final long interval;
        int next;

        Stream(Response response, Callback done, Runnable beforeLast, ByteBuffer[] frames, long interval) {
            this.response = response;
            this.done = done;
            this.beforeLast = beforeLast;
            this.frames = frames;
            this.interval = interval;
        }

        long due() {
            return start + next * interval;
        }

        @Override
        public int compareTo(Stream other) {
            return Long.compare(due(), other.due());
        }
    }

    private final ConcurrentLinkedQueue<Stream> added = new ConcurrentLinkedQueue<>();
    private final PriorityQueue<Stream> pending = new PriorityQueue<>();
    private volatile Thread thread;
    private volatile boolean closed;

    /**
     * Sends {@code frames[i]} at start + i × {@code interval}, each its own flushed chunk, the last one
     * ending the response; {@code done} completes (or fails) the exchange.
     */
    void send(Response response, Callback done, Runnable beforeLast, ByteBuffer[] frames, Duration interval) {
        if (frames.length == 0) {
            beforeLast.run();
            response.write(true, ByteBuffer.allocate(0), done);
            return;
        }
        writeNext(new Stream(response, done, beforeLast, frames, interval.toNanos())); // the first at once, here
    }

    private void schedule(Stream stream) {
        if (closed) {
            stream.done.failed(new IllegalStateException("the fake upstream is closing"));
            return;
        }
        added.add(stream);
        LockSupport.unpark(thread == null ? started() : thread); // due before the frame the ticker sleeps for?
    }

    /** The thread starts with the first paced stream: most fakes never pace one. */
    private synchronized Thread started() {
        if (thread == null) {
            Thread ticker = new Thread(this::loop, "fake-upstream-ticker");
            ticker.setDaemon(true);
            ticker.start();
            thread = ticker;
        }
        return thread;
    }

    private void loop() {
        while (!closed) {
            for (Stream s = added.poll(); s != null; s = added.poll()) {
                pending.add(s);
            }
            Stream first = pending.peek();
            long now = System.nanoTime();
            if (first == null || first.due() > now) {
                LockSupport.parkNanos(first == null ? 1_000_000_000L : first.due() - now);
                continue;
            }
            writeNext(pending.poll());
        }
    }

    private void writeNext(Stream s) {
        ByteBuffer frame = s.frames[s.next++];
        if (s.next == s.frames.length) {
            s.beforeLast.run();
            s.response.write(true, frame, s.done);
        } else {
            // non-blocking: Jetty runs it inline where the write completes, not on a pooled thread per frame
            s.response.write(false, frame, Callback.from(InvocationType.NON_BLOCKING, () -> schedule(s), s.done::failed));
        }
    }

    /** Stops the thread; streams still pending end when the server closes their connections. */
    @Override
    public synchronized void close() {
        closed = true;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }
}
