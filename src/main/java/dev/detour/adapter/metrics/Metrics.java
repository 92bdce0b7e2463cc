package dev.detour.adapter.metrics;

import dev.detour.gateway.port.RequestEvent;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * O-2 metrics: counters fed from request events (via {@link MetricsEventSink}) and probes, gauges
 * read on scrape. Rendered as Prometheus text by {@link #render(Instant)}.
 */
public final class Metrics {
    /** What the gauges read at scrape time. */
    public record Gauges(LongSupplier inFlight, CoolingCounter cooling, LongSupplier queueDepth,
            LongSupplier queueDropped) {
    }

    /** Cooling accounts and unavailable models at {@code now} (from the pool snapshot). */
    public interface CoolingCounter {
        long accounts(Instant now);

        long models(Instant now);
    }

    private final ConcurrentHashMap<String, LongAdder> requests = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LongAdder> attempts = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LongAdder> probes = new ConcurrentHashMap<>();
    private final Histogram requestDuration = new Histogram();
    private final Histogram upstreamDuration = new Histogram();
    private final Histogram ttft = new Histogram();
    private final Histogram queueWait = new Histogram();
    private final Gauges gauges;
    private final List<Series> extra = new CopyOnWriteArrayList<>();

    /** A single unlabelled series another part reports at scrape time ({@code counter} or {@code gauge}). */
    private record Series(String name, String type, String help, LongSupplier value) {
    }

    public Metrics(Gauges gauges) {
        this.gauges = gauges;
    }

    /** Adds a counter read at scrape time (X-4: refused connections, evicted sessions, ...). */
    public void counter(String name, String help, LongSupplier value) {
        extra.add(new Series(name, "counter", help, value));
    }

    /** Adds a gauge read at scrape time. */
    public void gauge(String name, String help, LongSupplier value) {
        extra.add(new Series(name, "gauge", help, value));
    }

    /** One health probe finished: others call this. */
    public void probe(boolean ok) {
        PrometheusText.series(probes, "result=\"" + (ok ? "ok" : "failed") + "\"").increment();
    }

    /** Counts one request's receipt: outcome/endpoint, each attempt's failure kind and duration, latency, TTFT, queue wait. */
    public void record(RequestEvent event) {
        PrometheusText.series(requests, "outcome=\"" + event.outcome().wire() + "\",endpoint=\""
                + PrometheusText.label(event.endpoint()) + "\"").increment();
        for (RequestEvent.AttemptRecord attempt : event.attempts()) {
            String kind = attempt.failureKind() == null ? "none" : attempt.failureKind();
            PrometheusText.series(attempts, "failure_kind=\"" + PrometheusText.label(kind) + "\"").increment();
            upstreamDuration.observe(attempt.durationMs() / 1000.0);
        }
        requestDuration.observe(event.latencyMs() / 1000.0);
        if (event.ttftMs() != null) {
            ttft.observe(event.ttftMs() / 1000.0);
        }
        if (event.queuedMs() != null) {
            queueWait.observe(event.queuedMs() / 1000.0);
        }
    }

    public String render(Instant now) {
        StringBuilder out = new StringBuilder(4096);
        PrometheusText.counters(out, "detour_requests_total", "Client requests by outcome and endpoint family.", requests);
        PrometheusText.counters(out, "detour_upstream_attempts_total",
                "Upstream attempts by failure kind (none = success).", attempts);
        PrometheusText.counters(out, "detour_probes_total", "Health probes by result.", probes);
        requestDuration.write(out, "detour_request_duration_seconds", "Client request latency, receipt to last byte.");
        upstreamDuration.write(out, "detour_upstream_attempt_duration_seconds", "Duration of each upstream attempt.");
        ttft.write(out, "detour_ttft_seconds", "Time to first token of streamed responses.");
        queueWait.write(out, "detour_queue_wait_seconds", "Time requests waited in the queue for a route below its"
                + " in-flight limit (L-2), whether they then got one or not.");
        PrometheusText.gauge(out, "detour_in_flight_requests", "Upstream requests in flight.",
                gauges.inFlight().getAsLong());
        PrometheusText.gauge(out, "detour_cooling_accounts", "Accounts cooling down or blocked now.",
                gauges.cooling().accounts(now));
        PrometheusText.gauge(out, "detour_unavailable_models", "Account models cooling, in error or paused now.",
                gauges.cooling().models(now));
        PrometheusText.gauge(out, "detour_event_queue_depth", "Request events waiting to be written.",
                gauges.queueDepth().getAsLong());
        PrometheusText.header(out, "detour_event_queue_dropped_total", "counter",
                "Request events dropped because the queue was full.");
        out.append("detour_event_queue_dropped_total ").append(gauges.queueDropped().getAsLong()).append('\n');
        for (Series series : extra) {
            PrometheusText.header(out, series.name(), series.type(), series.help());
            out.append(series.name()).append(' ').append(series.value().getAsLong()).append('\n');
        }
        return out.toString();
    }
}
