package dev.detour.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Added latency at concurrency 1: one keep-alive connection per leg, one request at a time,
 * legs taking turns (the starting leg rotates every round) so that all legs see the same machine
 * conditions. Records full round-trip time per request in microseconds.
 */
final class LatencyBench {
    private final List<Target> targets;
    private final byte[][] requests;
    private final HttpConn[] conns;
    private final Histogram[] histograms;
    private final long[] errors;

    LatencyBench(List<Target> targets, String model) {
        this.targets = targets;
        String body = Payloads.requestBody(model, false);
        this.requests = targets.stream().map(t -> t.postRequest(body)).toArray(byte[][]::new);
        this.conns = targets.stream().map(t -> new HttpConn(t.port())).toArray(HttpConn[]::new);
        this.histograms = targets.stream().map(t -> Stats.micros()).toArray(Histogram[]::new);
        this.errors = new long[targets.size()];
    }

    void run(int warmup, int rounds) {
        System.err.printf("latency: %d warm-up + %d measured requests per leg, legs alternating%n", warmup, rounds);
        for (int r = 0; r < warmup; r++) {
            round(r, false);
        }
        for (int r = 0; r < rounds; r++) {
            round(r, true);
        }
        for (int i = 0; i < targets.size(); i++) {
            Stats.emitMicros("lat." + targets.get(i).name(), histograms[i]);
            Stats.emit("lat." + targets.get(i).name() + ".errors", Long.toString(errors[i]));
            conns[i].close();
        }
    }

    private void round(int round, boolean record) {
        int k = targets.size();
        for (int j = 0; j < k; j++) {
            int i = (round + j) % k;
            long micros = timeOne(i);
            if (record && micros >= 0) {
                histograms[i].recordValue(micros);
            }
        }
    }

    /** One request; returns microseconds, or -1 (counted as an error) when not a 200. */
    private long timeOne(int i) {
        long start = System.nanoTime();
        try {
            HttpConn.Response response = conns[i].exchange(requests[i]);
            long micros = (System.nanoTime() - start) / 1000;
            if (response.status() == 200) {
                return micros;
            }
            reportError(i, "HTTP " + response.status() + ": " + new String(response.body(), StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            reportError(i, e.toString());
        }
        return -1;
    }

    private void reportError(int i, String what) {
        if (errors[i]++ < 3) {
            System.err.println("latency: " + targets.get(i).name() + " failed: " + what);
        }
    }
}
