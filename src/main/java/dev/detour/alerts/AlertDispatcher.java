package dev.detour.alerts;

import dev.detour.core.alerts.Alert;
import dev.detour.core.alerts.AlertKind;
import dev.detour.core.alerts.AlertRules;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * W-1: takes published alerts off the publisher's thread and delivers them on its own tick. Each
 * tick: write back what an outage kept in memory, fan out the alerts recorded with state changes (the
 * outbox, once in the cluster) and the queued ones to the channels that take them (one delivery per
 * channel, none while the same (event, object) is within the channel's suppression window, counted in
 * the database for the cluster), then send what is due — each stored delivery by the one instance that
 * claims it — and schedule retries with backoff ({@link AlertRules}). Deliveries are rows, so a pending
 * retry survives a restart.
 * <p>D-1: while the database is away nothing can be stored. The channels are the ones last read,
 * and new deliveries (the database alert among them) stay in memory, are sent and retried from there,
 * and are written to the delivery log once the database answers again.
 */
public final class AlertDispatcher implements Alerts {
    private static final Logger log = LoggerFactory.getLogger(AlertDispatcher.class);
    /** Alerts come in bursts of a few (a group going down): a thousand waiting means something is wrong. */
    static final int QUEUE_CAPACITY = 1000;
    static final int SEND_BATCH = 100;
    /** D-1: deliveries kept in memory during an outage, at most; the oldest finished ones go first. */
    static final int MEMORY_CAPACITY = 1000;
    /**
     * How long a claimed delivery is another instance's: longer than one send can take (SMTP: 5 s
     * connect + 10 s per read); an instance that dies mid-send leaves the row due again after it.
     */
    static final Duration CLAIM = Duration.ofSeconds(60);

    private final AlertStore store;
    private final AlertSender sender;
    private final BooleanSupplier databaseUp;
    private final ArrayBlockingQueue<Alert> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final AtomicLong dropped = new AtomicLong();
    /** D-1: when each (channel, event, object) was last delivered, as this instance knows it (outage fallback). */
    private final Map<String, Instant> lastSent = new ConcurrentHashMap<>();
    private final List<Delivery> unwritten = new ArrayList<>();
    private volatile List<AlertChannel> channels = List.of();
    /** Whether {@link #channels} was ever read: before that, the outbox is left alone (it would fan out to none). */
    private volatile boolean channelsRead;

    public AlertDispatcher(AlertStore store, AlertSender sender, BooleanSupplier databaseUp) {
        this.store = store;
        this.sender = sender;
        this.databaseUp = databaseUp;
    }

    @Override
    public void publish(Alert alert) {
        if (!queue.offer(alert) && dropped.getAndIncrement() % 100 == 0) {
            log.warn("alert queue full ({} waiting): {} alert(s) dropped so far", QUEUE_CAPACITY, dropped.get());
        }
    }

    /** Alerts dropped because the queue was full. */
    public long dropped() {
        return dropped.get();
    }

    /** Deliveries kept in memory because the database did not take them (D-1). */
    public synchronized int unwritten() {
        return unwritten.size();
    }

    /** One round at {@code now} (the scheduler calls it every second; tests call it themselves). */
    public synchronized void tick(Instant now) {
        boolean up = databaseUp.getAsBoolean();
        if (up) {
            writeBack();
            refreshChannels();
            fanOutRecorded(now);
        }
        List<Alert> batch = new ArrayList<>();
        queue.drainTo(batch);
        if (!batch.isEmpty()) {
            fanOut(batch, up, now);
        }
        List<Delivery> due = new ArrayList<>(unwritten.stream().filter(d -> d.dueAt(now)).toList());
        if (up) {
            try {
                due.addAll(store.dueDeliveries(now, SEND_BATCH));
            } catch (RuntimeException e) {
                log.debug("due alert deliveries not read: {}", e.toString());
            }
        }
        for (Delivery delivery : due) {
            if (claimed(delivery, now)) {
                keep(attempt(delivery, now));
            }
        }
    }

    /** W-1: the alerts recorded with their state changes, fanned out once in the cluster (the outbox). */
    private void fanOutRecorded(Instant now) {
        if (!channelsRead) {
            return;
        }
        try {
            store.fanOutRecorded(channels, now, SEND_BATCH).forEach(this::remember);
        } catch (RuntimeException e) {
            log.debug("recorded alerts not fanned out: {}", e.toString()); // they stay: the next tick tries
        }
    }

    /**
     * Suppression counted in the database for the whole cluster; while it is away (D-1), in memory from
     * what this instance last sent.
     */
    private void fanOut(List<Alert> batch, boolean up, Instant now) {
        if (up) {
            try {
                store.fanOut(channels, batch, now).forEach(this::remember);
                return;
            } catch (RuntimeException e) {
                log.debug("alerts not fanned out in the database, kept in memory: {}", e.toString());
            }
        }
        for (Alert alert : batch) {
            fanOutInMemory(alert, now);
        }
    }

    private void remember(Delivery delivery) {
        lastSent.merge(suppressionKey(delivery.channelId(), delivery.event(), delivery.object()),
                delivery.occurredAt(), (a, b) -> a.isAfter(b) ? a : b);
    }

    /** A stored delivery is sent by the one instance whose claim took it; one in memory is this instance's. */
    private boolean claimed(Delivery delivery, Instant now) {
        if (delivery.id() == 0) {
            return true;
        }
        try {
            return store.claim(delivery, now.plus(CLAIM));
        } catch (RuntimeException e) {
            return false; // the database went away: the row is still due when it is back
        }
    }

    /** The console's and the API's "send test": one attempt now, logged, never retried or suppressed. */
    public Delivery test(AlertChannel channel, Instant now) {
        Alert alert = new Alert(AlertKind.TEST, "channel:" + channel.id(), "Detour test alert",
                "a test from Detour: channel " + channel.name() + " (" + channel.kind().wire() + ") works", now);
        Delivery fresh = Delivery.of(channel, alert, now);
        Delivery sent = fresh.after(sender.send(channel, fresh), null, now);
        synchronized (this) {
            return keep(sent);
        }
    }

    private void fanOutInMemory(Alert alert, Instant now) {
        for (AlertChannel channel : channels) {
            if (!channel.takes(alert.kind())) {
                continue;
            }
            String key = suppressionKey(channel.id(), alert.kind(), alert.object());
            if (AlertRules.suppressed(lastSent.get(key), channel.suppress(), alert.at())) {
                continue;
            }
            lastSent.put(key, alert.at());
            keep(Delivery.of(channel, alert, now));
        }
    }

    private static String suppressionKey(long channelId, AlertKind event, String object) {
        return channelId + "|" + event.wire() + "|" + object;
    }

    private Delivery attempt(Delivery delivery, Instant now) {
        AlertChannel channel = channels.stream().filter(c -> c.id() == delivery.channelId()).findFirst().orElse(null);
        SendOutcome outcome = channel == null ? SendOutcome.failed(null, "the channel was deleted")
                : sender.send(channel, delivery);
        Instant next = channel == null ? null : AlertRules.nextRetry(delivery.attempts() + 1, now);
        Delivery after = delivery.after(outcome, next, now);
        if (after.status() == Delivery.Status.FAILED) {
            log.warn("alert {} on {} to channel {} failed after {} attempt(s): {}", after.event().wire(),
                    after.object(), after.channelName(), after.attempts(), after.error());
        }
        return after;
    }

    /**
     * Stores the delivery's latest state (returned with its id), or keeps it in memory until the database
     * takes it (returned as it is).
     */
    private Delivery keep(Delivery delivery) {
        unwritten.removeIf(d -> d == delivery || d.id() == 0 && sameDelivery(d, delivery)
                || d.id() != 0 && d.id() == delivery.id());
        try {
            if (!databaseUp.getAsBoolean()) {
                throw new IllegalStateException("database unavailable");
            }
            return write(delivery);
        } catch (RuntimeException e) {
            unwritten.add(delivery);
            if (unwritten.size() > MEMORY_CAPACITY) {
                unwritten.stream().filter(d -> d.status() != Delivery.Status.PENDING).findFirst()
                        .ifPresentOrElse(unwritten::remove, () -> unwritten.remove(0));
            }
            return delivery;
        }
    }

    private Delivery write(Delivery delivery) {
        if (delivery.id() == 0) {
            return delivery.withId(store.insertDelivery(delivery));
        }
        store.updateDelivery(delivery);
        return delivery;
    }

    private void writeBack() {
        for (Delivery d : List.copyOf(unwritten)) {
            try {
                write(d);
                unwritten.remove(d);
            } catch (RuntimeException e) {
                return; // still away: the next tick tries again
            }
        }
    }

    private static boolean sameDelivery(Delivery a, Delivery b) {
        return a.channelId() == b.channelId() && a.event() == b.event() && a.object().equals(b.object())
                && a.createdAt().equals(b.createdAt());
    }

    private void refreshChannels() {
        try {
            channels = store.channels();
            channelsRead = true;
        } catch (RuntimeException e) {
            log.debug("alert channels not re-read: {}", e.toString()); // the last ones read stay in use
        }
    }
}
