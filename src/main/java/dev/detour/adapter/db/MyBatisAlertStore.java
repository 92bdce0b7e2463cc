package dev.detour.adapter.db;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.port.AuditEntry;
import dev.detour.admin.port.Changes;
import dev.detour.admin.port.SecretSealer;
import dev.detour.alerts.AlertChannel;
import dev.detour.alerts.AlertStore;
import dev.detour.alerts.ChannelKind;
import dev.detour.alerts.Delivery;
import dev.detour.core.alerts.Alert;
import dev.detour.core.alerts.AlertKind;
import dev.detour.core.alerts.AlertRules;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.ibatis.session.SqlSession;

/**
 * {@link AlertStore} on MariaDB. X-5 at rest: a channel's secrets are one JSON object sealed by the
 * {@link SecretSealer} that seals upstream keys, bound to the negated channel id (account ids are
 * positive, so neither opens as the other, and a sealed value copied onto another channel does not open).
 */
public final class MyBatisAlertStore implements AlertStore {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> STRINGS = new TypeReference<>() { };
    private final Database database;
    /** The admin unit of work this store joined (W-2's import), or null: each call in its own transaction. */
    private final SqlSession joined;
    private final SecretSealer sealer;

    public MyBatisAlertStore(Database database, SecretSealer sealer) {
        this(database, null, sealer);
    }

    private MyBatisAlertStore(Database database, SqlSession joined, SecretSealer sealer) {
        this.database = database;
        this.joined = joined;
        this.sealer = sealer;
    }

    /**
     * W-2: this store on an admin unit of work ({@link MyBatisTransactions}): what it writes (channels and their
     * audit rows) commits or rolls back with the rest of that transaction, and it reads what the work wrote so far.
     */
    public MyBatisAlertStore joining(Changes unitOfWork) {
        return new MyBatisAlertStore(database, MyBatisTransactions.session(unitOfWork), sealer);
    }

    private <T> T inTransaction(Function<SqlSession, T> work) {
        return joined != null ? work.apply(joined) : database.inTransaction(work);
    }

    private <T> T read(Function<SqlSession, T> work) {
        return joined != null ? work.apply(joined) : database.read(work);
    }

    @Override
    public List<AlertChannel> channels() {
        return read(s -> mapper(s).selectChannels()).stream().map(this::channel).toList();
    }

    @Override
    public Optional<AlertChannel> channel(long id) {
        return Optional.ofNullable(read(s -> mapper(s).selectChannel(id))).map(this::channel);
    }

    @Override
    public AlertChannel create(AlertChannel channel, String actor, Instant now) {
        return inTransaction(s -> {
            mapper(s).insertChannel(row(channel, 0, null, now));
            long id = mapper(s).lastInsertId();
            AlertChannel stored = withId(channel, id);
            mapper(s).updateChannel(row(stored, id, seal(stored), now));
            audit(s, actor, "alert_channel.create", id, null, document(stored), now);
            return stored;
        });
    }

    @Override
    public AlertChannel update(AlertChannel before, AlertChannel after, String actor, Instant now) {
        return inTransaction(s -> {
            mapper(s).updateChannel(row(after, after.id(), seal(after), now));
            audit(s, actor, "alert_channel.update", after.id(), document(before), document(after), now);
            return after;
        });
    }

    @Override
    public void delete(AlertChannel channel, String actor, Instant now) {
        inTransaction(s -> {
            mapper(s).deleteChannel(channel.id());
            audit(s, actor, "alert_channel.delete", channel.id(), document(channel), null, now);
            return null;
        });
    }

    @Override
    public long insertDelivery(Delivery d) {
        return inTransaction(s -> {
            mapper(s).insertDelivery(row(d));
            return mapper(s).lastInsertId();
        });
    }

    @Override
    public void updateDelivery(Delivery d) {
        inTransaction(s -> mapper(s).updateDelivery(row(d)));
    }

    @Override
    public List<Delivery> dueDeliveries(Instant now, int limit) {
        return read(s -> mapper(s).selectDueDeliveries(now, limit)).stream()
                .map(MyBatisAlertStore::delivery).toList();
    }

    @Override
    public List<Delivery> deliveries(int offset, int limit) {
        return read(s -> mapper(s).selectDeliveries(offset, limit)).stream()
                .map(MyBatisAlertStore::delivery).toList();
    }

    @Override
    public long deliveryCount() {
        return read(s -> mapper(s).countDeliveries());
    }

    @Override
    public List<Delivery> fanOut(List<AlertChannel> channels, List<Alert> alerts, Instant now) {
        if (alerts.isEmpty()) {
            return List.of();
        }
        return inTransaction(s -> {
            List<Delivery> stored = new ArrayList<>();
            for (Alert alert : alerts) {
                stored.addAll(fanOut(s, channels, alert, now));
            }
            return stored;
        });
    }

    @Override
    public List<Delivery> fanOutRecorded(List<AlertChannel> channels, Instant now, int limit) {
        List<Long> ids = read(s -> mapper(s).selectRecordedIds(limit));
        if (ids.isEmpty()) {
            return List.of();
        }
        return inTransaction(s -> {
            List<Delivery> stored = new ArrayList<>();
            for (AlertOutboxRow row : mapper(s).selectRecordedForUpdate(ids)) { // gone: another instance took it
                Alert alert = new Alert(AlertKind.fromWire(row.event()), row.object(), row.title(), row.body(),
                        row.occurredAt());
                stored.addAll(fanOut(s, channels, alert, now));
                mapper(s).deleteRecorded(row.id());
            }
            return stored;
        });
    }

    /** W-1 suppression on the row of (channel, event, object), locked while deciding: one sender per window. */
    private static List<Delivery> fanOut(SqlSession s, List<AlertChannel> channels, Alert alert, Instant now) {
        List<Delivery> stored = new ArrayList<>();
        for (AlertChannel channel : channels) {
            if (!channel.takes(alert.kind())) {
                continue;
            }
            AlertMapper m = mapper(s);
            m.insertSuppressionIgnore(channel.id(), alert.kind().wire(), alert.object());
            Instant last = m.selectSuppressionForUpdate(channel.id(), alert.kind().wire(), alert.object());
            if (AlertRules.suppressed(last, channel.suppress(), alert.at())) {
                continue;
            }
            m.updateSuppression(channel.id(), alert.kind().wire(), alert.object(), alert.at());
            Delivery delivery = Delivery.of(channel, alert, now);
            m.insertDelivery(row(delivery));
            stored.add(delivery.withId(m.lastInsertId()));
        }
        return stored;
    }

    @Override
    public boolean claim(Delivery delivery, Instant until) {
        return inTransaction(s -> mapper(s).claimDelivery(delivery.id(), delivery.nextRetryAt(), until)) == 1;
    }

    private static AlertMapper mapper(SqlSession s) {
        return s.getMapper(AlertMapper.class);
    }

    /** U-6: the channel as its audit row shows it: settings, and secrets only as hints. */
    public static String document(AlertChannel c) {
        ObjectNode o = JSON.createObjectNode().put("id", c.id()).put("name", c.name()).put("kind", c.kind().wire())
                .put("enabled", c.enabled()).put("suppress_seconds", c.suppress().toSeconds());
        var events = o.putArray("events");
        c.events().stream().map(AlertKind::wire).sorted().forEach(events::add);
        o.set("settings", JSON.valueToTree(c.settings()));
        o.set("secret_hints", JSON.valueToTree(c.secretHints()));
        return o.toString();
    }

    private static void audit(SqlSession s, String actor, String action, long id, String before, String after,
            Instant now) {
        s.getMapper(AuditMapper.class).insert(new AuditEntry(0, actor, action, "alert_channel", Long.toString(id),
                before, after, now));
    }

    private String seal(AlertChannel c) {
        return c.secrets().isEmpty() ? null : sealer.seal(json(c.secrets()), -c.id());
    }

    private static AlertChannelRow row(AlertChannel c, long id, String sealed, Instant now) {
        String events = c.events().stream().map(AlertKind::wire).sorted().collect(Collectors.joining(","));
        return new AlertChannelRow(id, c.name(), c.kind().wire(), c.enabled(), events, (int) c.suppress().toSeconds(),
                json(c.settings()), sealed, json(c.secretHints()), now, now);
    }

    private AlertChannel channel(AlertChannelRow r) {
        Set<AlertKind> events = r.events() == null || r.events().isBlank() ? Set.of()
                : Arrays.stream(r.events().split(",")).map(AlertKind::fromWire).collect(Collectors.toUnmodifiableSet());
        Map<String, String> secrets = opened(r);
        return new AlertChannel(r.id(), r.name(), ChannelKind.fromWire(r.kind()), r.enabled(), events,
                Duration.ofSeconds(r.suppressSeconds()), map(r.settingsJson()), secrets, map(r.secretHints()));
    }

    /** D-4: secrets that do not open (another master key) leave the channel without them; its sends then fail, logged. */
    private Map<String, String> opened(AlertChannelRow r) {
        if (r.secretsSealed() == null) {
            return Map.of();
        }
        try {
            return map(sealer.open(r.secretsSealed(), -r.id()));
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    private static AlertChannel withId(AlertChannel c, long id) {
        return new AlertChannel(id, c.name(), c.kind(), c.enabled(), c.events(), c.suppress(), c.settings(),
                c.secrets(), c.secretHints());
    }

    private static AlertDeliveryRow row(Delivery d) {
        return new AlertDeliveryRow(d.id(), d.channelId(), d.channelName(), d.event().wire(), d.object(), d.title(),
                d.text(), d.occurredAt(), d.attempts(), d.status().wire(), d.httpStatus(), d.error(), d.nextRetryAt(),
                d.createdAt(), d.updatedAt());
    }

    private static Delivery delivery(AlertDeliveryRow r) {
        return new Delivery(r.id(), r.channelId(), r.channelName(), AlertKind.fromWire(r.event()), r.object(),
                r.title(), r.body(), r.occurredAt(), r.attempts(), Delivery.Status.valueOf(r.status().toUpperCase()),
                r.httpStatus(), r.error(), r.nextRetryAt(), r.createdAt(), r.updatedAt());
    }

    private static String json(Map<String, String> map) {
        try {
            return JSON.writeValueAsString(map);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, String> map(String json) {
        if (json == null || json.isBlank()) {
            return Map.of();
        }
        try {
            return Map.copyOf(JSON.readValue(json, STRINGS));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable alert channel column", e);
        }
    }
}
