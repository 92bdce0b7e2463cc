package dev.detour.adapter.metrics;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/** A Prometheus histogram with fixed buckets (seconds); lock-free observe. */
final class Histogram {
    static final double[] SECONDS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300};

    private final AtomicLongArray buckets = new AtomicLongArray(SECONDS.length);
    private final LongAdder count = new LongAdder();
    private final DoubleAdder sum = new DoubleAdder();

    void observe(double seconds) {
        for (int i = 0; i < SECONDS.length; i++) {
            if (seconds <= SECONDS[i]) {
                buckets.incrementAndGet(i);
                break;
            }
        }
        count.increment();
        sum.add(seconds);
    }

    /** Writes the cumulative buckets, sum and count. */
    void write(StringBuilder out, String name, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(" histogram\n");
        long cumulative = 0;
        for (int i = 0; i < SECONDS.length; i++) {
            cumulative += buckets.get(i);
            out.append(name).append("_bucket{le=\"").append(PrometheusText.number(SECONDS[i])).append("\"} ")
                    .append(cumulative).append('\n');
        }
        out.append(name).append("_bucket{le=\"+Inf\"} ").append(count.sum()).append('\n');
        out.append(name).append("_sum ").append(PrometheusText.number(sum.sum())).append('\n');
        out.append(name).append("_count ").append(count.sum()).append('\n');
    }
}
