package dev.detour.bench;

import java.io.IOException;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Streaming at concurrency 1: one stream at a time, legs taking turns, each leg on its own
 * keep-alive connection. Records time to first SSE frame and the gap between consecutive frames.
 * In the Messages dialect every leg is sent the Messages request at /v1/messages (N-9: a native leg
 * and a bridged one, told apart by their model).
 */
final class StreamBench {
    private static final int PARALLEL_WARMUP = 250;
    private final List<Target> targets;
    private final StreamCheck.Dialect dialect;

    StreamBench(List<Target> targets, StreamCheck.Dialect dialect) {
        this.targets = targets;
        this.dialect = dialect;
    }

    private byte[] request(Target target) {
        String model = target.modelOr("bench-stream");
        return dialect == StreamCheck.Dialect.MESSAGES
                ? target.postRequest("/v1/messages", Payloads.messagesBody(model, true))
                : target.postRequest(Payloads.requestBody(model, true));
    }

    void run(int warmup, int rounds) throws InterruptedException {
        int k = targets.size();
        byte[][] requests = targets.stream().map(this::request).toArray(byte[][]::new);
        HttpConn[] conns = targets.stream().map(t -> new HttpConn(t.port())).toArray(HttpConn[]::new);
        Histogram[] ttft = new Histogram[k];
        Histogram[] gaps = new Histogram[k];
        long[] lost = new long[k];
        long[] failed = new long[k];
        for (int i = 0; i < k; i++) {
            ttft[i] = Stats.micros();
            gaps[i] = Stats.micros();
        }
        System.err.printf("streams: %d parallel + %d sequential warm-up, %d measured streams per leg, legs alternating%n",
                PARALLEL_WARMUP, warmup, rounds);
        for (int i = 0; i < k; i++) {
            warmUpInParallel(targets.get(i), requests[i]);
        }
        for (int r = 0; r < warmup + rounds; r++) {
            for (int j = 0; j < k; j++) {
                int i = (r + j) % k;
                StreamCheck check = streamOnce(conns[i], requests[i], targets.get(i).name(), dialect);
                if (r < warmup) {
                    continue;
                }
                lost[i] += check == null ? StreamCheck.EXPECTED_FRAMES : check.lostFrames();
                failed[i] += check == null || !check.complete() ? 1 : 0;
                if (check != null && check.complete()) {
                    check.recordInto(ttft[i], gaps[i]);
                }
            }
        }
        for (int i = 0; i < k; i++) {
            String name = targets.get(i).name();
            Stats.emitMicros("ttft." + name, ttft[i]);
            Stats.emitMicros("gap." + name, gaps[i]);
            Stats.emit("stream." + name + ".lost_frames", Long.toString(lost[i]));
            Stats.emit("stream." + name + ".failed_streams", Long.toString(failed[i]));
            conns[i].close();
        }
    }

    /**
     * JIT-warms this JVM's stream path (and the leg's) with a batch of concurrent streams, so the
     * sequential measurement does not time interpreted client code; a few seconds per leg.
     */
    private void warmUpInParallel(Target target, byte[] request) throws InterruptedException {
        Thread[] threads = new Thread[PARALLEL_WARMUP];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = Thread.ofVirtual().start(() -> {
                try (HttpConn conn = new HttpConn(target.port())) {
                    for (int s = 0; s < 2; s++) {
                        streamOnce(conn, request, target.name(), dialect);
                    }
                }
            });
            Thread.sleep(2); // spread connects over ~0.5 s instead of one SYN burst
        }
        for (Thread thread : threads) {
            thread.join(120_000);
        }
    }

    /** Runs one stream; null when the exchange failed outright. */
    static StreamCheck streamOnce(HttpConn conn, byte[] request, String name, StreamCheck.Dialect dialect) {
        StreamCheck check = new StreamCheck(dialect, System.nanoTime(), () -> { });
        return streamOnce(conn, request, name, check) ? check : null;
    }

    /** Runs one stream into {@code check}; false when the exchange failed outright. */
    static boolean streamOnce(HttpConn conn, byte[] request, String name, StreamCheck check) {
        try {
            int status = conn.exchange(request, check);
            if (status != 200) {
                System.err.println("streams: " + name + " answered HTTP " + status);
                return false;
            }
            return true;
        } catch (IOException | RuntimeException e) {
            System.err.println("streams: " + name + " failed: " + e);
            conn.close();
            return false;
        }
    }
}
