package dev.detour.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Concurrent streams held: N clients (virtual threads, one connection each) are started over
 * {@code rampMillis}; once every client has sent its first request the hold window opens, and
 * each client runs stream after stream until it closes. Every stream is checked frame by frame.
 * Reports streams in flight (request sent, not finished) and streams receiving (first frame read,
 * not finished — those the proxy is really serving, not queueing) during the window, sampled
 * every 50 ms (a client is briefly idle between two of its streams), streams
 * completed, failed streams, lost frames, and TTFT and frame gaps under that load.
 */
final class HoldBench {
    private static final long MS = 1_000_000L;
    private final Target target;
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger receiving = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private final Histogram ttft = Stats.micros();
    private final Histogram gaps = Stats.micros();
    private volatile boolean stop;

    HoldBench(Target target) {
        this.target = target;
    }

    void run(int clients, long rampMillis, long holdMillis) throws InterruptedException {
        byte[] request = target.postRequest(Payloads.requestBody("bench-stream", true));
        System.err.printf("hold %s: %d clients, ramp %d ms, hold %d ms%n", target.name(), clients, rampMillis, holdMillis);
        long start = System.nanoTime();
        List<Thread> threads = new ArrayList<>(clients);
        for (int c = 0; c < clients; c++) {
            parkUntil(start + rampMillis * MS * c / clients);
            threads.add(Thread.ofVirtual().name("hold-client").start(() -> client(request)));
        }
        long holdStart = awaitAllStarted(clients, System.nanoTime() + 60_000 * MS);
        int[][] samples = sampleWindow(holdStart, holdStart + holdMillis * MS);
        stop = true;
        for (Thread t : threads) {
            t.join(120_000);
        }
        emit(clients, (holdStart - start) / MS, samples[0], samples[1]);
    }

    private long awaitAllStarted(int clients, long deadline) {
        while (started.get() < clients && System.nanoTime() < deadline) {
            LockSupport.parkNanos(5 * MS);
        }
        return System.nanoTime();
    }

    /**
     * Samples every 50 ms during the hold window: [0] streams in flight (request sent, [DONE] not
     * yet read) and [1] streams receiving (first frame read, [DONE] not yet read); both sorted.
     */
    private int[][] sampleWindow(long holdStart, long holdEnd) {
        int n = (int) Math.max(1, (holdEnd - holdStart) / (50 * MS));
        int[][] samples = new int[2][n];
        for (int i = 0; i < n; i++) {
            parkUntil(holdStart + i * 50 * MS);
            samples[0][i] = inFlight.get();
            samples[1][i] = receiving.get();
        }
        Arrays.sort(samples[0]);
        Arrays.sort(samples[1]);
        return samples;
    }

    private void client(byte[] request) {
        boolean first = true;
        try (HttpConn conn = new HttpConn(target.port())) {
            while (!stop) {
                peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                if (first) {
                    started.incrementAndGet();
                    first = false;
                }
                StreamCheck check = new StreamCheck(System.nanoTime(), receiving::incrementAndGet);
                boolean ok = StreamBench.streamOnce(conn, request, target.name(), check);
                if (check.firstFrameSeen()) {
                    receiving.decrementAndGet();
                }
                inFlight.decrementAndGet();
                record(ok ? check : null);
                if (!ok) {
                    parkUntil(System.nanoTime() + 100 * MS); // a refusing leg must not spin
                }
            }
        }
    }

    private void record(StreamCheck check) {
        lost.addAndGet(check == null ? StreamCheck.EXPECTED_FRAMES : check.lostFrames());
        if (check == null || !check.complete()) {
            failed.incrementAndGet();
            return;
        }
        completed.incrementAndGet();
        synchronized (this) {
            check.recordInto(ttft, gaps);
        }
    }

    private void emit(int clients, long rampTookMillis, int[] samples, int[] receivingSamples) {
        String p = "hold." + target.name();
        Stats.emit(p + ".clients", Integer.toString(clients));
        Stats.emit(p + ".ramp_ms", Long.toString(rampTookMillis));
        Stats.emit(p + ".min_in_flight", Integer.toString(samples[0]));
        Stats.emit(p + ".median_in_flight", Integer.toString(samples[samples.length / 2]));
        Stats.emit(p + ".min_receiving", Integer.toString(receivingSamples[0]));
        Stats.emit(p + ".median_receiving", Integer.toString(receivingSamples[receivingSamples.length / 2]));
        Stats.emit(p + ".peak_in_flight", Integer.toString(peak.get()));
        Stats.emit(p + ".streams_completed", Long.toString(completed.get()));
        Stats.emit(p + ".failed_streams", Long.toString(failed.get()));
        Stats.emit(p + ".lost_frames", Long.toString(lost.get()));
        Stats.emitMicros(p + ".ttft", ttft);
        Stats.emitMicros(p + ".gap", gaps);
    }

    private static void parkUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
