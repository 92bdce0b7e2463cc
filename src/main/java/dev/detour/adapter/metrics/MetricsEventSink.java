package dev.detour.adapter.metrics;

import dev.detour.gateway.port.EventSink;
import dev.detour.gateway.port.RequestEvent;
import java.time.Instant;

/** Decorates the event sink the Forwarder writes to: counts each event, then passes it on unchanged. */
public final class MetricsEventSink implements EventSink {
    private final EventSink next;
    private final Metrics metrics;

    public MetricsEventSink(EventSink next, Metrics metrics) {
        this.next = next;
        this.metrics = metrics;
    }

    @Override
    public void emit(RequestEvent event) {
        try {
            metrics.record(event);
            if ("healthcheck_probe".equals(event.reasonCode())) {
                // O-2: background probes are counted from their own receipts (R-4 test events)
                metrics.probe(event.outcome() == RequestEvent.Outcome.SUCCESS);
            }
        } finally {
            next.emit(event);
        }
    }

    @Override
    public void started(RequestEvent ifInterrupted) {
        next.started(ifInterrupted); // counted when it ends, not now
    }

    @Override
    public void touchAccount(long accountId, boolean success, Instant at, String modelKey) {
        next.touchAccount(accountId, success, at, modelKey);
    }
}
