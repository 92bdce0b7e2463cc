package dev.detour.alerts;

import dev.detour.core.alerts.Alert;

/**
 * W-1: where pool events are published. A hand-off that never blocks and never fails the caller:
 * the alert is queued for the dispatcher's next tick (or dropped, counted, when the queue is full).
 */
public interface Alerts {
    Alerts NONE = alert -> { };

    void publish(Alert alert);
}
