package dev.detour.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends the deltas of every open fake-upstream stream from one platform thread, in due order.
 * A thread (virtual or not) per stream sleeping 20 ms between frames cost the fake upstream
 * ~24 µs of CPU per frame — a whole core of the bench's 2 at 1,000 streams, taken from the
 * proxies it measures. One ticker wakes once for all frames due together and only writes.
 * Deadlines are reckoned from each stream's start, so a late wake-up does not drift a stream.
 * Its writes block, but cannot stall the others: a whole stream (~6 KiB) fits in a socket's
 * send buffer even when the reader is slow.
 */
final class DeltaTicker {
    /** One stream in progress: the next frame to send and when. */
    private static final class Stream implements Comparable<Stream> {
        final OutputStream out;
        final long start;
        final byte[][] frames;
        final CompletableFuture<Void> done = new CompletableFuture<>();
        int next;

        Stream(OutputStream out, long start, byte[][] frames) {
            this.out = out;
            this.start = start;
            this.frames = frames;
        }

        /** Frame i is due at (i + 1) × 20 ms; anything after the last delta goes right after it. */
        long due() {
            return start + Math.min(next + 1, Payloads.DELTAS) * Payloads.DELTA_INTERVAL_NANOS;
        }

        @Override
        public int compareTo(Stream other) {
            return Long.compare(due(), other.due());
        }
    }

    private final ConcurrentLinkedQueue<Stream> added = new ConcurrentLinkedQueue<>();
    private final PriorityQueue<Stream> pending = new PriorityQueue<>();
    private final Thread thread = Thread.ofPlatform().daemon().name("upstream-ticker").start(this::loop);

    /**
     * Sends {@code frames[i]} at {@code start + (i + 1) × 20 ms} (frames past the 64th with the
     * last delta), each written and flushed on its own; the caller waits on the result before it
     * reads the connection's next request.
     */
    CompletableFuture<Void> send(OutputStream out, long start, byte[][] frames) {
        Stream stream = new Stream(out, start, frames);
        added.add(stream);
        LockSupport.unpark(thread); // its first frame may be due before the one the ticker sleeps for
        return stream.done;
    }

    private void loop() {
        while (true) {
            for (Stream s = added.poll(); s != null; s = added.poll()) {
                pending.add(s);
            }
            Stream first = pending.peek();
            long now = System.nanoTime();
            if (first == null || first.due() > now) {
                LockSupport.parkNanos(first == null ? 1_000_000_000L : first.due() - now);
                continue;
            }
            pending.poll();
            if (writeNext(first)) {
                pending.add(first);
            }
        }
    }

    /** @return whether the stream has frames left */
    private static boolean writeNext(Stream s) {
        try {
            s.out.write(s.frames[s.next]);
            s.out.flush();
        } catch (IOException e) {
            s.done.completeExceptionally(e);
            return false;
        }
        s.next++;
        if (s.next < s.frames.length) {
            return true;
        }
        s.done.complete(null);
        return false;
    }
}
