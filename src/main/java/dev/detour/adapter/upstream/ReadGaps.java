package dev.detour.adapter.upstream;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * P-4's read gap kept by one sweep over the open upstream connections instead of a socket read timeout.
 *
 * <p>On Java 17 a socket read with a timeout is {@code read} → {@code EAGAIN} → {@code poll} → {@code read}
 * (and once a socket has read with a timeout it stays non-blocking, so every later read pays the same):
 * three system calls per relayed frame where a blocking read makes one. So upstream sockets read with no
 * timeout; each connection notes when its current read started, and {@link #sweep} cuts a connection
 * whose read has waited longer than its gap. The blocked read then fails as the socket timeout failed it
 * before, with a {@link SocketTimeoutException}, so it is classified, reported and retried exactly as
 * before. Like the socket timeout, the gap counts only time spent inside a read: a client slow to take
 * the frames does not cut the upstream.
 */
final class ReadGaps {
    private static final long NOT_READING = Long.MIN_VALUE;

    private final Set<Gap> open = ConcurrentHashMap.newKeySet();
    private final LongSupplier nanoTime;

    ReadGaps(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** Starts watching one connection's reads; {@code cut} closes it (from the sweeping thread). */
    Gap watch(Runnable cut) {
        Gap gap = new Gap(cut);
        open.add(gap);
        return gap;
    }

    /** Cuts every connection whose current read has waited longer than its gap. */
    void sweep() {
        long now = nanoTime.getAsLong();
        for (Gap gap : open) {
            gap.cutIfSilentAt(now);
        }
    }

    /** How many connections are watched (tests). */
    int watched() {
        return open.size();
    }

    /** One connection's reads and its gap (the request's read timeout, set per exchange). */
    final class Gap {
        private final Runnable cut;
        private volatile long gapNanos;
        private volatile long readingSince = NOT_READING;
        /** N-7: since when a pump waits for this connection's bytes (its non-blocking reads never wait). */
        private volatile long waitingSince = NOT_READING;
        private volatile boolean silent;

        private Gap(Runnable cut) {
            this.cut = cut;
        }

        /** The longest a read may wait; zero or less: no limit. */
        void limit(long nanos) {
            this.gapNanos = nanos;
        }

        /** Whether a read is waiting right now (tests). */
        boolean reading() {
            return readingSince != NOT_READING;
        }

        /**
         * N-7: a pumped stream waits for its next bytes with no read in progress: the gap counts from now, as if a
         * read had started ({@code false}: it ended).
         */
        void waiting(boolean waiting) {
            waitingSince = waiting ? nanoTime.getAsLong() : NOT_READING;
        }

        /** The connection closed: nothing left to watch. */
        void end() {
            open.remove(this);
        }

        /**
         * Runs one blocking step that is not a read (a connect, a TLS handshake) under this gap as if it were one:
         * cut by the sweep once it waits longer than the gap, it fails with a {@link SocketTimeoutException}.
         */
        void during(BlockingStep step) throws IOException {
            readingSince = nanoTime.getAsLong();
            try {
                step.run();
            } catch (IOException e) {
                throw silent ? readTimedOut() : e;
            } finally {
                readingSince = NOT_READING;
            }
        }

        /** The connection's socket input, every read timed by this gap. */
        InputStream timing(InputStream socketInput) {
            return new TimedInput(socketInput);
        }

        private void cutIfSilentAt(long now) {
            long since = readingSince == NOT_READING ? waitingSince : readingSince;
            long limit = gapNanos;
            if (since != NOT_READING && limit > 0 && now - since > limit && !silent) {
                silent = true;
                cut.run();
            }
        }

        private int timed(int result) throws SocketTimeoutException {
            if (result < 0 && silent) {
                throw readTimedOut(); // closed by the sweep rather than by the upstream
            }
            return result;
        }

        private SocketTimeoutException readTimedOut() {
            return new SocketTimeoutException("Read timed out");
        }

        private final class TimedInput extends FilterInputStream {
            TimedInput(InputStream in) {
                super(in);
            }

            @Override
            public int read() throws IOException {
                readingSince = nanoTime.getAsLong();
                try {
                    return timed(in.read());
                } catch (IOException e) {
                    throw silent ? readTimedOut() : e;
                } finally {
                    readingSince = NOT_READING;
                }
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                readingSince = nanoTime.getAsLong();
                try {
                    return timed(in.read(buffer, offset, length));
                } catch (IOException e) {
                    throw silent ? readTimedOut() : e;
                } finally {
                    readingSince = NOT_READING;
                }
            }
        }
    }

    /** A blocking step {@link Gap#during} times. */
    interface BlockingStep {
        void run() throws IOException;
    }
}
