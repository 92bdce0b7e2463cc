package dev.detour.alerts;

import dev.detour.core.alerts.Alert;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * W-1 port: channels (secrets sealed at rest, each change audited in its own transaction) and the
 * delivery log.
 */
public interface AlertStore {
    List<AlertChannel> channels();

    Optional<AlertChannel> channel(long id);

    /** Stores a new channel ({@code id} ignored) and its audit row; returns it with its id. */
    AlertChannel create(AlertChannel channel, String actor, Instant now);

    /** Replaces a channel and audits the change (before and after, secrets as hints only). */
    AlertChannel update(AlertChannel before, AlertChannel after, String actor, Instant now);

    void delete(AlertChannel channel, String actor, Instant now);

    /** Returns the new row's id. */
    long insertDelivery(Delivery delivery);

    void updateDelivery(Delivery delivery);

    /** Pending deliveries whose retry time has come, oldest first. */
    List<Delivery> dueDeliveries(Instant now, int limit);

    /** The delivery log, newest first. */
    List<Delivery> deliveries(int offset, int limit);

    long deliveryCount();

    /**
     * In one transaction: a delivery row for each (alert, channel that takes it) whose suppression
     * window, kept in the database for the whole cluster, has passed; returns the stored deliveries.
     */
    List<Delivery> fanOut(List<AlertChannel> channels, List<Alert> alerts, Instant now);

    /**
     * Takes up to {@code limit} alerts recorded with their state changes (the outbox), fans them out as
     * {@link #fanOut} does and removes them, in one transaction with the rows locked: each is fanned out
     * once in the cluster, whichever instance gets there first.
     */
    List<Delivery> fanOutRecorded(List<AlertChannel> channels, Instant now, int limit);

    /** Claims a due stored delivery for one attempt until {@code until}; false when another instance has. */
    boolean claim(Delivery delivery, Instant until);
}
