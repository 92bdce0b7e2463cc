package dev.detour.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.alerts.Alert;
import dev.detour.core.alerts.AlertKind;
import dev.detour.core.alerts.AlertRules;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * W-1 / D-1: the dispatcher with in-memory fakes of its own ports (a store that can be "down", a
 * sender that records): an alert made while the database is away is sent from memory and lands in
 * the delivery log once the database is back; a channel only gets the events it takes.
 */
class AlertDispatcherTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private final AtomicBoolean databaseUp = new AtomicBoolean(true);
    private final MemoryStore store = new MemoryStore();
    private final List<String> sent = new ArrayList<>();
    private final AlertDispatcher dispatcher = new AlertDispatcher(store, (channel, d) -> {
        sent.add(channel.name() + " " + d.event().wire() + " " + d.object());
        return SendOutcome.sent(200);
    }, databaseUp::get);

    private static AlertChannel channel(long id, String name, Set<AlertKind> events) {
        return new AlertChannel(id, name, ChannelKind.WEBHOOK, true, events, Duration.ofMinutes(10), Map.of(),
                Map.of("url", "http://127.0.0.1:1/"), Map.of());
    }

    @Test
    void anAlertDuringADatabaseOutageIsSentFromMemoryAndLoggedWhenTheDatabaseIsBack() {
        store.channels.put(1L, channel(1, "ops", Set.of()));
        dispatcher.tick(T0); // reads the channels while the database answers
        databaseUp.set(false);
        store.down = true;

        dispatcher.publish(new Alert(AlertKind.DATABASE_UNAVAILABLE, "database", "the database is unavailable", "x",
                T0));
        dispatcher.tick(T0.plusSeconds(1));
        assertEquals(List.of("ops database.unavailable database"), sent);
        assertEquals(0, store.deliveries.size());
        assertEquals(1, dispatcher.unwritten());

        databaseUp.set(true);
        store.down = false;
        dispatcher.tick(T0.plusSeconds(2));
        assertEquals(0, dispatcher.unwritten());
        assertEquals(1, store.deliveries.size());
        Delivery logged = store.deliveries.values().iterator().next();
        assertEquals(Delivery.Status.SENT, logged.status());
        assertEquals(1, logged.attempts());
        assertEquals(List.of("ops database.unavailable database"), sent, "sent once, not again when written");
    }

    @Test
    void aChannelGetsOnlyTheEventsItTakesAndADisabledOneNone() {
        store.channels.put(1L, channel(1, "revocations", Set.of(AlertKind.ACCOUNT_REVOKED)));
        store.channels.put(2L, channel(2, "everything", Set.of()));
        AlertChannel off = channel(3, "off", Set.of());
        store.channels.put(3L, new AlertChannel(3, "off", off.kind(), false, Set.of(), off.suppress(), Map.of(),
                off.secrets(), Map.of()));
        dispatcher.publish(new Alert(AlertKind.ACCOUNT_REVOKED, "account:1", "t", "x", T0));
        dispatcher.publish(new Alert(AlertKind.GROUP_HALTED, "group:1", "t", "x", T0));
        dispatcher.tick(T0);
        assertEquals(List.of("revocations account.revoked account:1", "everything account.revoked account:1",
                "everything group.halted group:1"), sent);
    }

    @Test
    void anAlertRecordedWithItsStateChangeIsFannedOutOnTheNextTickAndSentOnce() {
        store.channels.put(1L, channel(1, "ops", Set.of()));
        store.outbox.add(new Alert(AlertKind.ACCOUNT_ERROR, "account:7", "t", "x", T0));
        dispatcher.tick(T0);
        dispatcher.tick(T0.plusSeconds(1));
        assertEquals(List.of("ops account.error account:7"), sent);
        assertEquals(Delivery.Status.SENT, store.deliveries.get(1L).status());
    }

    @Test
    void aDueDeliveryThatAnotherInstanceClaimedIsNotSentHere() {
        store.channels.put(1L, channel(1, "ops", Set.of()));
        store.claimedElsewhere.add(1L);
        dispatcher.publish(new Alert(AlertKind.ACCOUNT_REVOKED, "account:1", "t", "x", T0));
        dispatcher.tick(T0);
        assertEquals(List.of(), sent);
        assertEquals(Delivery.Status.PENDING, store.deliveries.get(1L).status(), "the claimer sends and logs it");
    }

    @Test
    void whileTheDatabaseIsAwayTheSuppressionWindowIsCountedFromWhatThisInstanceLastSent() {
        store.channels.put(1L, channel(1, "ops", Set.of()));
        dispatcher.publish(new Alert(AlertKind.ACCOUNT_REVOKED, "account:1", "t", "x", T0));
        dispatcher.tick(T0); // sent, suppression row written in the store
        databaseUp.set(false);
        store.down = true;
        dispatcher.publish(new Alert(AlertKind.ACCOUNT_REVOKED, "account:1", "t", "x", T0.plusSeconds(60)));
        dispatcher.publish(new Alert(AlertKind.ACCOUNT_REVOKED, "account:2", "t", "x", T0.plusSeconds(60)));
        dispatcher.tick(T0.plusSeconds(60));
        assertEquals(List.of("ops account.revoked account:1", "ops account.revoked account:2"), sent,
                "account:1 is still inside its 10-minute window");
    }

    /** The store as a map, "down" on demand (every call throws, as MyBatis does without MariaDB). */
    private static final class MemoryStore implements AlertStore {
        final Map<Long, AlertChannel> channels = new LinkedHashMap<>();
        final Map<Long, Delivery> deliveries = new LinkedHashMap<>();
        boolean down;
        long nextId = 1;

        private void reachable() {
            if (down) {
                throw new IllegalStateException("database down");
            }
        }

        @Override
        public List<AlertChannel> channels() {
            reachable();
            return List.copyOf(channels.values());
        }

        @Override
        public Optional<AlertChannel> channel(long id) {
            reachable();
            return Optional.ofNullable(channels.get(id));
        }

        @Override
        public AlertChannel create(AlertChannel channel, String actor, Instant now) {
            throw new UnsupportedOperationException();
        }

        @Override
        public AlertChannel update(AlertChannel before, AlertChannel after, String actor, Instant now) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void delete(AlertChannel channel, String actor, Instant now) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long insertDelivery(Delivery d) {
            reachable();
            long id = nextId++;
            deliveries.put(id, d.withId(id));
            return id;
        }

        @Override
        public void updateDelivery(Delivery d) {
            reachable();
            deliveries.put(d.id(), d);
        }

        @Override
        public List<Delivery> dueDeliveries(Instant now, int limit) {
            reachable();
            return deliveries.values().stream().filter(d -> d.dueAt(now)).limit(limit).toList();
        }

        @Override
        public List<Delivery> deliveries(int offset, int limit) {
            reachable();
            return deliveries.values().stream().sorted(Comparator.comparingLong(Delivery::id).reversed())
                    .skip(offset).limit(limit).toList();
        }

        @Override
        public long deliveryCount() {
            return deliveries.size();
        }

        final Map<String, Instant> suppressions = new LinkedHashMap<>();
        final List<Alert> outbox = new ArrayList<>();
        /** Ids another instance has claimed. */
        final Set<Long> claimedElsewhere = new java.util.HashSet<>();

        @Override
        public List<Delivery> fanOut(List<AlertChannel> to, List<Alert> alerts, Instant now) {
            reachable();
            List<Delivery> stored = new ArrayList<>();
            for (Alert alert : alerts) {
                for (AlertChannel channel : to) {
                    String key = channel.id() + "|" + alert.kind() + "|" + alert.object();
                    if (channel.takes(alert.kind())
                            && !AlertRules.suppressed(suppressions.get(key), channel.suppress(), alert.at())) {
                        suppressions.put(key, alert.at());
                        Delivery d = Delivery.of(channel, alert, now);
                        stored.add(d.withId(insertDelivery(d)));
                    }
                }
            }
            return stored;
        }

        @Override
        public List<Delivery> fanOutRecorded(List<AlertChannel> to, Instant now, int limit) {
            reachable();
            List<Delivery> stored = fanOut(to, List.copyOf(outbox), now);
            outbox.clear();
            return stored;
        }

        @Override
        public boolean claim(Delivery delivery, Instant until) {
            reachable();
            return !claimedElsewhere.contains(delivery.id());
        }
    }
}
