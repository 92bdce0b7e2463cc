package dev.detour.adapter.upstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** P-4's read gap kept by a sweep: time is a clock the test moves, the "socket" a pipe it closes. */
class ReadGapsTest {
    private static final long GAP = TimeUnit.SECONDS.toNanos(180);

    private final AtomicLong now = new AtomicLong(1_000);
    private final ReadGaps gaps = new ReadGaps(now::get);
    private final PipedOutputStream upstream = new PipedOutputStream();
    private final PipedInputStream socket = pipe(upstream);
    private final CountDownLatch cut = new CountDownLatch(1);

    @Test
    void aReadWaitingLongerThanTheGapIsCutAndFailsAsASocketReadTimeout() throws Exception {
        ReadGaps.Gap gap = watchedGap();
        InputStream input = gap.timing(socket);
        CompletableFuture<Object> read = readOnAnotherThread(input);
        waitUntilReading(gap);

        now.addAndGet(GAP + 1);
        gaps.sweep();

        assertTrue(cut.await(10, TimeUnit.SECONDS), "the sweep cut the connection");
        Throwable failure = failureOf(read);
        assertInstanceOf(SocketTimeoutException.class, failure);
    }

    @Test
    void aReadWaitingExactlyTheGapIsNotCut() throws Exception {
        ReadGaps.Gap gap = watchedGap();
        CompletableFuture<Object> read = readOnAnotherThread(gap.timing(socket));
        waitUntilReading(gap);

        now.addAndGet(GAP);
        gaps.sweep();
        upstream.write(7);

        assertEquals(7, read.get(10, TimeUnit.SECONDS));
        assertEquals(1, cut.getCount(), "not cut");
    }

    /** N-7: a pumped stream has no read in progress while it waits: the gap counts from each arrival. */
    @Test
    void aPumpedConnectionWaitingLongerThanTheGapIsCutAndOneGivenBackIsNot() throws Exception {
        ReadGaps.Gap gap = watchedGap();
        gap.waiting(true);
        now.addAndGet(GAP);
        gaps.sweep();
        assertEquals(1, cut.getCount(), "exactly the gap: not cut");
        gap.waiting(true); // bytes arrived: the gap counts from now
        now.addAndGet(GAP);
        gaps.sweep();
        assertEquals(1, cut.getCount(), "not cut: the gap counts from the last arrival");

        gap.waiting(false); // given back to its thread, which reads on (timed as every read)
        now.addAndGet(10 * GAP);
        gaps.sweep();
        assertEquals(1, cut.getCount(), "nothing waits: not cut");

        gap.waiting(true);
        now.addAndGet(GAP + 1);
        gaps.sweep();
        assertEquals(0, cut.getCount(), "waited past the gap: cut");
        assertInstanceOf(SocketTimeoutException.class, failureOf(readOnAnotherThread(gap.timing(socket))),
                "the read that follows fails as a socket read timeout");
    }

    @Test
    void timeBetweenReadsDoesNotCountSoASlowClientNeverCutsTheUpstream() throws Exception {
        ReadGaps.Gap gap = watchedGap();
        InputStream input = gap.timing(socket);
        upstream.write(new byte[] {1, 2});

        assertEquals(1, input.read());
        now.addAndGet(10 * GAP); // the relay spent this long writing to its client
        gaps.sweep();
        byte[] rest = new byte[1];
        assertEquals(1, input.read(rest, 0, 1));

        assertArrayEquals(new byte[] {2}, rest);
        assertEquals(1, cut.getCount(), "not cut");
    }

    @Test
    void noGapMeansNoLimitAndAnEndedConnectionIsNoLongerWatched() throws Exception {
        ReadGaps.Gap gap = gaps.watch(cut::countDown);
        CompletableFuture<Object> read = readOnAnotherThread(gap.timing(socket));
        waitUntilReading(gap);

        now.addAndGet(100 * GAP);
        gaps.sweep();
        upstream.write(9);

        assertEquals(9, read.get(10, TimeUnit.SECONDS));
        assertEquals(1, cut.getCount(), "not cut");
        assertEquals(1, gaps.watched());
        gap.end();
        assertEquals(0, gaps.watched());
    }

    @Test
    void aConnectionTheUpstreamClosesEndsAsBeforeNotAsATimeout() throws Exception {
        ReadGaps.Gap gap = watchedGap();
        InputStream input = gap.timing(socket);
        upstream.close();

        assertEquals(-1, input.read());
        socket.close();
        IOException failure = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, input::read);
        assertFalse(failure instanceof SocketTimeoutException);
    }

    private ReadGaps.Gap watchedGap() {
        ReadGaps.Gap gap = gaps.watch(() -> {
            try {
                upstream.close(); // the blocked read ends, as it does when the socket is closed under it
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            cut.countDown();
        });
        gap.limit(GAP);
        return gap;
    }

    /** Waits (no deadline: a condition, not a time) until the reader's read has started. */
    private void waitUntilReading(ReadGaps.Gap gap) throws InterruptedException {
        while (!gap.reading()) {
            Thread.sleep(1);
        }
    }

    private CompletableFuture<Object> readOnAnotherThread(InputStream input) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try {
                result.complete(input.read());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, "gap-reader");
        reader.setDaemon(true);
        reader.start();
        return result;
    }

    private static Throwable failureOf(CompletableFuture<Object> read) throws InterruptedException {
        try {
            read.get(10, TimeUnit.SECONDS);
            throw new AssertionError("the read should have failed");
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the read is still blocked", e);
        }
    }

    private static PipedInputStream pipe(PipedOutputStream out) {
        try {
            return new PipedInputStream(out);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
