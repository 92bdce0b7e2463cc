package dev.detour.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/** X-4's minimum body rate on a controlled clock: a client's own pace counts, Detour's delays do not. */
class MinimumBodyRateTest {
    private static final long MS = 1_000_000L;

    /** A client's bytes arriving at set times; a read with nothing here waits (the clock jumps) for the next. */
    private static final class Client extends ServletInputStream {
        private final long[] now;
        private final Deque<long[]> arrivals = new ArrayDeque<>(); // {at millis, bytes}
        private long here;

        Client(long[] now) {
            this.now = now;
        }

        Client sends(long atMillis, int bytes) {
            arrivals.add(new long[] {atMillis, bytes});
            return this;
        }

        private void arrive() {
            while (!arrivals.isEmpty() && arrivals.peek()[0] * MS <= now[0]) {
                here += arrivals.poll()[1];
            }
        }

        @Override
        public int available() {
            arrive();
            return (int) here;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            arrive();
            if (here == 0) {
                if (arrivals.isEmpty()) {
                    return -1;
                }
                now[0] = Math.max(now[0], arrivals.peek()[0] * MS); // blocked until the client's next bytes
                arrive();
            }
            int n = (int) Math.min(len, here);
            here -= n;
            java.util.Arrays.fill(b, off, off + n, (byte) 'a');
            return n;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : 'a';
        }

        @Override
        public boolean isFinished() {
            return arrivals.isEmpty() && here == 0;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
        }
    }

    /** Reads the whole body 100 bytes at a time; before each read Detour itself is held up for {@code delayMs}. */
    private static byte[] readAll(InputStream in, long[] now, long delayMs) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[100];
        int n;
        while (true) {
            now[0] += delayMs * MS;
            if ((n = in.read(buffer)) < 0) {
                return out.toByteArray();
            }
            out.write(buffer, 0, n);
        }
    }

    @Test
    void aBodyThatArrivedWholeIsNotCutHoweverLateDetourReadsItsEnd() throws IOException {
        long[] now = {0};
        MinimumBodyRate rate = new MinimumBodyRate(1024, () -> now[0]);
        // 300 bytes at once: Jetty's rule (bytes taken in since Detour's first read) cut this after 0.29 s
        InputStream body = rate.watch(new Client(now).sends(0, 300));
        assertEquals(300, readAll(body, now, 2_000).length, "Detour held up 2 s before each read: not the client's fault");
    }

    @Test
    void aClientKeepingTheRateIsNotCutWhileDetourFallsBehindAndCatchesUp() throws IOException {
        long[] now = {0};
        MinimumBodyRate rate = new MinimumBodyRate(1024, () -> now[0]);
        Client client = new Client(now);
        for (int second = 0; second < 10; second++) {
            client.sends(second * 1000L, 1100); // 1,100 bytes every second: just above the minimum
        }
        assertEquals(11_000, readAll(rate.watch(client), now, 700).length);
    }

    @Test
    void aTrickleBelowTheRateIsCutOnceDetourHasToWaitForIt() throws IOException {
        long[] now = {0};
        MinimumBodyRate rate = new MinimumBodyRate(1000, () -> now[0]);
        Client slowloris = new Client(now);
        for (int i = 0; i < 100; i++) {
            slowloris.sends(i * 200L, 1); // one byte every 200 ms, never silent for long
        }
        InputStream body = rate.watch(slowloris);
        assertThrows(MinimumBodyRate.TooSlowException.class, () -> readAll(body, now, 0));
        assertTrue(now[0] < 1000 * MS, "cut within its first second, not after its 20 s of body: " + now[0] / MS);
    }

    @Test
    void aSilentStartIsLeftToTheClientTimeoutAndNoMinimumWatchesNothing() throws IOException {
        long[] now = {0};
        Client late = new Client(now).sends(20_000, 500); // headers, then 20 s before the body
        assertEquals(500, readAll(new MinimumBodyRate(1024, () -> now[0]).watch(late), now, 0).length);
        Client slow = new Client(now).sends(30_000, 1).sends(60_000, 1);
        ServletInputStream unwatched = new MinimumBodyRate(0, () -> now[0]).watch(slow);
        assertArrayEquals(new byte[] {'a', 'a'}, readAll(unwatched, now, 0));
    }
}
