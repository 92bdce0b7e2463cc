package dev.detour.alerts;

import dev.detour.core.alerts.Alert;
import dev.detour.core.alerts.AlertKind;
import java.time.Instant;

/**
 * W-1: one alert on its way to one channel, as the delivery log shows it. {@code id} 0 = not stored
 * yet (D-1: made while the database was away; kept in memory, written when it is back).
 */
public record Delivery(long id, long channelId, String channelName, AlertKind event, String object, String title,
        String text, Instant occurredAt, int attempts, Status status, Integer httpStatus, String error,
        Instant nextRetryAt, Instant createdAt, Instant updatedAt) {

    public enum Status {
        PENDING, SENT, FAILED;

        public String wire() {
            return name().toLowerCase();
        }
    }

    public static Delivery of(AlertChannel channel, Alert alert, Instant now) {
        return new Delivery(0, channel.id(), channel.name(), alert.kind(), alert.object(), alert.title(),
                alert.text(), alert.at(), 0, Status.PENDING, null, null, now, now, now);
    }

    public Delivery withId(long newId) {
        return new Delivery(newId, channelId, channelName, event, object, title, text, occurredAt, attempts, status,
                httpStatus, error, nextRetryAt, createdAt, updatedAt);
    }

    Delivery after(SendOutcome outcome, Instant next, Instant now) {
        Status s = outcome.ok() ? Status.SENT : next == null ? Status.FAILED : Status.PENDING;
        return new Delivery(id, channelId, channelName, event, object, title, text, occurredAt, attempts + 1, s,
                outcome.httpStatus(), outcome.error(), outcome.ok() ? null : next, createdAt, now);
    }

    boolean dueAt(Instant now) {
        return status == Status.PENDING && nextRetryAt != null && !nextRetryAt.isAfter(now);
    }

    public Alert alert() {
        return new Alert(event, object, title, text, occurredAt);
    }
}
