package dev.detour.adapter.db;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.detour.gateway.port.RequestEvent;
import dev.detour.gateway.port.RequestEvent.AttemptRecord;
import dev.detour.gateway.port.RequestEvent.RejectionRecord;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event writer's statements as prepared JDBC batches: fixed SQL text, parameters bound per row.
 * MyBatis' {@code foreach} rebuilt and regex-rewrote the multi-row SQL for every batch, about a third
 * of Detour's CPU in the JFR profile (docs/performance.md). Times are UTC wall time, as
 * {@link UtcInstantTypeHandler} writes them.
 */
final class EventBatches {
    private static final Logger log = LoggerFactory.getLogger(EventBatches.class);
    private static final JsonFactory JSON = new JsonFactory();
    private static final String INSERT_EVENT = "INSERT IGNORE INTO request_events (request_id, key_id, endpoint,"
            + " requested_model, model_key, stream, account_id, group_id, outcome, status, error_code, reason_code,"
            + " attempts_json, rejections_json, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,"
            + " cost_micros, ttft_ms, latency_ms, client_ip, created_at, usage_missing, cache_write_1h_tokens,"
            + " reasoning_tokens, upstream_protocol, queued_ms)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String ADD_SPENT = "UPDATE detour_keys SET spent_micros = spent_micros + ? WHERE id = ?";
    private static final String TOUCH_ACCOUNT = "UPDATE accounts SET success_count = success_count + ?,"
            + " error_count = error_count + ?, last_used_at = GREATEST(COALESCE(last_used_at, ?), ?) WHERE id = ?";
    private static final String SERVED_MODEL = "INSERT INTO account_served_models (account_id, model_key,"
            + " last_served_at) VALUES (?, ?, ?)"
            + " ON DUPLICATE KEY UPDATE last_served_at = GREATEST(last_served_at, VALUES(last_served_at))";

    private final DataSource dataSource;

    EventBatches(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * One transaction: the events in order (ids ascend with the batch) and K-2's spend per key. D-1:
     * an event already stored (a batch retried after a commit whose answer was lost, or replayed)
     * is skipped by INSERT IGNORE and adds no spend, so a key's spend is never counted twice.
     */
    void writeEvents(List<RequestEvent> events) throws SQLException {
        writeEvents(events, true);
    }

    /**
     * As {@link #writeEvents(List)}; with {@code maybeWritten} (D-2: a journal replay, or a retry after a
     * failure whose commit is unknown) the events already stored are left out first, so neither a row nor
     * a key's spend is added twice.
     */
    void writeEvents(List<RequestEvent> events, boolean maybeWritten) throws SQLException {
        if (events.isEmpty()) {
            return;
        }
        inTransaction(c -> {
            if (maybeWritten) {
                List<RequestEvent> fresh = notStored(c, events);
                batch(c, INSERT_EVENT, fresh, EventBatches::bindEvent);
                addSpend(c, fresh);
                requireEveryEvent(c, events);
            } else {
                long inserted = batch(c, INSERT_EVENT, events, EventBatches::bindEvent);
                addSpend(c, events);
                if (inserted != events.size() || !holdsEvery(c, firstAndLast(events))) {
                    requireEveryEvent(c, events);
                }
            }
        });
    }

    /** The events whose request id is not in request_events yet, each id once, in order. */
    private static List<RequestEvent> notStored(Connection c, List<RequestEvent> events) throws SQLException {
        Set<String> stored = new HashSet<>();
        try (PreparedStatement ps = byRequestIds(c, "SELECT request_id", events); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                stored.add(rs.getString(1));
            }
        }
        List<RequestEvent> fresh = new ArrayList<>(events.size());
        for (RequestEvent e : events) {
            if (stored.add(e.requestId())) {
                fresh.add(e);
            }
        }
        return fresh;
    }

    /**
     * D-2: the last statement before the commit: the transaction sees a row for every event of the batch, or it
     * is not committed. INSERT IGNORE is there for D-1's duplicates, but it also turns other errors into warnings
     * and skips the row (a constraint), and Galera has lost a brute-force abort's error before (the statement
     * rolled back, the client told nothing, the next statement in a new transaction): either way the commit would
     * have counted events as written that the database does not hold. A short batch is refused as a conflict, so
     * it runs again (and, past {@link TransactionRetry#ATTEMPTS}, waits in the journal like any batch not taken).
     *
     * <p>A fresh batch usually proves it for less (this lookup of every id was an eighth of MariaDB's CPU under
     * load, docs/performance.md): the INSERT's counts say each row went in (a skipped row leaves the driver
     * without per-row counts), and a rollback takes every row of the transaction with it, the first included, so
     * the first and last rows still there show nothing was rolled back since. Only when that fails are all ids
     * counted, which decides.
     */
    private static void requireEveryEvent(Connection c, List<RequestEvent> events) throws SQLException {
        long held = held(c, events);
        long expected = distinctIds(events);
        if (held != expected) {
            log.warn("request event batch not committed: the transaction holds {} of its {} events (a row skipped"
                    + " or rolled back without an error); written again", held, expected);
            throw new ShortBatch(held, expected);
        }
    }

    private static boolean holdsEvery(Connection c, List<RequestEvent> events) throws SQLException {
        return held(c, events) == distinctIds(events);
    }

    private static long held(Connection c, List<RequestEvent> events) throws SQLException {
        try (PreparedStatement ps = byRequestIds(c, "SELECT COUNT(*)", events); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private static long distinctIds(List<RequestEvent> events) {
        return events.stream().map(RequestEvent::requestId).distinct().count();
    }

    private static List<RequestEvent> firstAndLast(List<RequestEvent> events) {
        return events.size() == 1 ? events : List.of(events.get(0), events.get(events.size() - 1));
    }

    /** {@code select} over request_events for the batch's request ids (the unique index). */
    private static PreparedStatement byRequestIds(Connection c, String select, List<RequestEvent> events)
            throws SQLException {
        PreparedStatement ps = c.prepareStatement(select + " FROM request_events WHERE request_id IN ("
                + String.join(", ", Collections.nCopies(events.size(), "?")) + ")");
        try {
            for (int i = 0; i < events.size(); i++) {
                ps.setString(i + 1, events.get(i).requestId());
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    /** A batch the transaction does not fully hold: rolled back and retried as a lost conflict is (SQLSTATE 40001). */
    static final class ShortBatch extends SQLException {
        ShortBatch(long held, long expected) {
            super("the transaction holds " + held + " of the batch's " + expected + " request events", "40001");
        }
    }

    /** One transaction: one UPDATE per account (sums and latest time), one upsert per served model. */
    void writeTouches(Collection<AccountTouch> touches, Collection<ServedModel> served) throws SQLException {
        if (!touches.isEmpty() || !served.isEmpty()) {
            inTransaction(c -> {
                batch(c, TOUCH_ACCOUNT, touches, EventBatches::bindTouch);
                batch(c, SERVED_MODEL, served, EventBatches::bindServed);
            });
        }
    }

    private interface Work {
        void run(Connection c) throws SQLException;
    }

    /**
     * G-4: a deadlock or a Galera certification failure (two instances adding to the same account's counters or
     * key's spend through different nodes) rolled the whole batch back, so it runs again, within TransactionRetry's
     * bound; before, the account counters of that flush were dropped and an event batch waited out a pause as if
     * the database were away.
     */
    private void inTransaction(Work work) throws SQLException {
        for (int tries = 1; ; tries++) {
            try {
                once(work);
                return;
            } catch (SQLException e) {
                if (tries >= TransactionRetry.ATTEMPTS || !TransactionRetry.isConflict(e)) {
                    throw e;
                }
            }
        }
    }

    private void once(Work work) throws SQLException {
        Connection c;
        try {
            c = dataSource.getConnection();
        } catch (SQLException e) {
            throw new NotCommitted(e);
        }
        try (c) {
            try {
                c.setAutoCommit(false); // on a failover URL this may reconnect, and fail, first
                work.run(c);
            } catch (SQLException e) {
                rollbackQuietly(c);
                throw new NotCommitted(e);
            } catch (RuntimeException e) {
                rollbackQuietly(c);
                throw e;
            }
            try {
                c.commit();
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c);
                throw e;
            }
        }
    }

    /** The connection may be the broken one: the failure that matters is the one already thrown. */
    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException | RuntimeException ignored) {
            // a rollback on a dead connection: the server rolls the transaction back when it sees it gone
        }
    }

    /**
     * The transaction failed before its commit was sent (no connection, or a statement refused or cut): nothing
     * of it is in the database, so sums it carried can be sent again without being added twice. A failure of the
     * commit itself leaves that unknown (except a conflict: Galera certification and deadlocks roll back).
     */
    static final class NotCommitted extends SQLException {
        NotCommitted(SQLException cause) {
            super(cause.getMessage(), cause.getSQLState(), cause.getErrorCode(), cause);
        }
    }

    private interface Binder<T> {
        void bind(PreparedStatement ps, T row) throws SQLException;
    }

    /**
     * One prepared statement, one parameter set per row, sent as one batch; nothing when there are no rows.
     * Returns the rows it changed, or -1 when the driver does not say per row (MariaDB Connector/J's bulk
     * form answers {@link java.sql.Statement#SUCCESS_NO_INFO} for every row unless each changed exactly one).
     */
    private static <T> long batch(Connection c, String sql, Collection<T> rows, Binder<T> binder)
            throws SQLException {
        if (rows.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (T row : rows) {
                binder.bind(ps, row);
                ps.addBatch();
            }
            long changed = 0;
            for (int count : ps.executeBatch()) {
                if (count < 0) {
                    return -1;
                }
                changed += count;
            }
            return changed;
        }
    }

    private static void bindEvent(PreparedStatement ps, RequestEvent e) throws SQLException {
        ps.setString(1, e.requestId());
        setLong(ps, 2, e.keyId());
        ps.setString(3, e.endpoint());
        ps.setString(4, e.requestedModel());
        ps.setString(5, e.modelKey());
        ps.setBoolean(6, e.stream());
        setLong(ps, 7, e.accountId());
        setLong(ps, 8, e.groupId());
        ps.setString(9, e.outcome().wire());
        ps.setInt(10, e.status());
        ps.setString(11, e.errorCode());
        ps.setString(12, e.reasonCode());
        ps.setString(13, attemptsJson(e.attempts()));
        ps.setString(14, rejectionsJson(e.rejections()));
        ps.setLong(15, e.usage().input());
        ps.setLong(16, e.usage().output());
        ps.setLong(17, e.usage().cacheRead());
        ps.setLong(18, e.usage().cacheWrite5m()); // B-4: cache_write_tokens holds the 5 min writes
        ps.setLong(19, e.costMicros());
        if (e.ttftMs() == null) {
            ps.setNull(20, Types.INTEGER);
        } else {
            ps.setInt(20, e.ttftMs());
        }
        ps.setInt(21, e.latencyMs());
        ps.setString(22, e.clientIp());
        setTime(ps, 23, e.createdAt());
        ps.setBoolean(24, e.usageMissing());
        ps.setLong(25, e.usage().cacheWrite1h());
        ps.setLong(26, e.usage().reasoning());
        ps.setString(27, e.upstreamProtocol());
        if (e.queuedMs() == null) {
            ps.setNull(28, Types.INTEGER);
        } else {
            ps.setInt(28, e.queuedMs());
        }
    }

    private static void addSpend(Connection c, List<RequestEvent> events) throws SQLException {
        Map<Long, Long> perKey = new TreeMap<>(); // K-2: spend from event costs, keys in id order
        for (RequestEvent e : events) {
            if (e.keyId() != null && e.costMicros() > 0) {
                perKey.merge(e.keyId(), e.costMicros(), Long::sum);
            }
        }
        batch(c, ADD_SPENT, perKey.entrySet(), (ps, spend) -> {
            ps.setLong(1, spend.getValue());
            ps.setLong(2, spend.getKey());
        });
    }

    private static void bindTouch(PreparedStatement ps, AccountTouch t) throws SQLException {
        ps.setLong(1, t.successDelta());
        ps.setLong(2, t.errorDelta());
        setTime(ps, 3, t.lastUsedAt());
        setTime(ps, 4, t.lastUsedAt());
        ps.setLong(5, t.accountId());
    }

    private static void bindServed(PreparedStatement ps, ServedModel m) throws SQLException {
        ps.setLong(1, m.accountId());
        ps.setString(2, m.modelKey());
        setTime(ps, 3, m.lastServedAt());
    }

    private static void setLong(PreparedStatement ps, int index, Long value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.BIGINT);
        } else {
            ps.setLong(index, value);
        }
    }

    private static void setTime(PreparedStatement ps, int index, Instant value) throws SQLException {
        ps.setObject(index, LocalDateTime.ofInstant(value, ZoneOffset.UTC));
    }

    /**
     * Attempts and rejections as snake_case JSON arrays, written with Jackson's streaming generator: the
     * object mapper's reflective serializer was ~5 % of Detour's CPU per request under load (JFR).
     */
    static String attemptsJson(List<AttemptRecord> attempts) {
        return array(attempts, (g, a) -> {
            g.writeNumberField("account_id", a.accountId());
            nullableInt(g, "status", a.status());
            g.writeStringField("failure_kind", a.failureKind());
            g.writeStringField("scope", a.scope());
            g.writeNumberField("duration_ms", a.durationMs());
            g.writeStringField("action", a.action());
            g.writeStringField("bridged_from", a.bridgedFrom()); // B-1: both null for a native attempt
            g.writeStringField("bridged_to", a.bridgedTo());
        });
    }

    static String rejectionsJson(List<RejectionRecord> rejections) {
        return array(rejections, (g, r) -> {
            g.writeNumberField("account_id", r.accountId());
            g.writeStringField("reason", r.reason());
        });
    }

    private interface Fields<T> {
        void write(JsonGenerator g, T item) throws IOException;
    }

    private static <T> String array(List<T> items, Fields<T> fields) {
        StringWriter out = new StringWriter(16 + 96 * items.size());
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartArray();
            for (T item : items) {
                g.writeStartObject();
                fields.write(g, item);
                g.writeEndObject();
            }
            g.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static void nullableInt(JsonGenerator g, String name, Integer value) throws IOException {
        if (value == null) {
            g.writeNullField(name);
        } else {
            g.writeNumberField(name, value);
        }
    }
}
