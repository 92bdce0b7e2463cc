package dev.detour.adapter.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Helpers for the Prometheus text exposition format 0.0.4. */
final class PrometheusText {
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {
    }

    static String number(double value) {
        if (value == Math.rint(value) && !Double.isInfinite(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }

    /** Label values escape backslash, quote and newline. */
    static String label(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    static void header(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    /** A labelled counter family: keys are already-rendered label sets like {@code outcome="success"}. */
    static void counters(StringBuilder out, String name, String help, Map<String, LongAdder> series) {
        header(out, name, "counter", help);
        new TreeMap<>(series).forEach((labels, value) ->
                out.append(name).append('{').append(labels).append("} ").append(value.sum()).append('\n'));
    }

    static void gauge(StringBuilder out, String name, String help, double value) {
        header(out, name, "gauge", help);
        out.append(name).append(' ').append(number(value)).append('\n');
    }

    static LongAdder series(ConcurrentHashMap<String, LongAdder> family, String labels) {
        return family.computeIfAbsent(labels, k -> new LongAdder());
    }
}
