package dev.detour.bench;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/** Prints results as {@code key=value} lines on stdout; run.sh collects them for the report. */
final class Stats {
    private Stats() {
    }

    /** A histogram of microseconds with 3 significant digits, up to 10 minutes. */
    static Histogram micros() {
        return new Histogram(600_000_000L, 3);
    }

    /** Emits n, mean, p50, p90, p99, p99.9 and max of a histogram recorded in microseconds. */
    static void emitMicros(String prefix, Histogram h) {
        emit(prefix + ".n", Long.toString(h.getTotalCount()));
        if (h.getTotalCount() == 0) {
            return;
        }
        emit(prefix + ".mean_us", fmt(h.getMean()));
        emit(prefix + ".p50_us", Long.toString(h.getValueAtPercentile(50)));
        emit(prefix + ".p90_us", Long.toString(h.getValueAtPercentile(90)));
        emit(prefix + ".p99_us", Long.toString(h.getValueAtPercentile(99)));
        emit(prefix + ".p999_us", Long.toString(h.getValueAtPercentile(99.9)));
        emit(prefix + ".max_us", Long.toString(h.getMaxValue()));
    }

    static void emit(String key, String value) {
        System.out.println(key + "=" + value);
        System.out.flush();
    }

    static String fmt(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
