package dev.detour.adapter.db;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.detour.gateway.EventSink;
import dev.detour.gateway.RequestEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounded async writer for request events and account usage touches (SPEC §1, N-2, N-4).
 * The request path only enqueues. When the queue is full (sustained database trouble) the
 * oldest event is dropped and counted. {@link #close()} flushes everything still queued.
 */
public final class AsyncEventWriter implements EventSink, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AsyncEventWriter.class);
    static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
    private static final int BATCH = 500;

    private final Database database;
    private final LinkedBlockingDeque<RequestEvent> queue;
    private final Map<Long, AccountTouch> touches = new HashMap<>();
    private final Map<String, ServedModel> served = new HashMap<>();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    public AsyncEventWriter(Database database, int capacity) {
        this.database = database;
        this.queue = new LinkedBlockingDeque<>(capacity);
        this.thread = new Thread(this::loop, "detour-event-writer");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    @Override
    public void emit(RequestEvent event) {
        while (!queue.offerLast(event)) {
            if (queue.pollFirst() != null) {
                dropped.incrementAndGet();
            }
        }
    }

    @Override
    public void touchAccount(long accountId, boolean success, Instant at, String modelKey) {
        synchronized (touches) {
            touches.merge(accountId, new AccountTouch(accountId, success ? 1 : 0, success ? 0 : 1, at),
                    (a, b) -> new AccountTouch(accountId, a.successDelta() + b.successDelta(),
                            a.errorDelta() + b.errorDelta(),
                            a.lastUsedAt().isAfter(b.lastUsedAt()) ? a.lastUsedAt() : b.lastUsedAt()));
            if (success && modelKey != null) {
                served.put(accountId + "\u0000" + modelKey, new ServedModel(accountId, modelKey, at));
            }
        }
    }

    public long dropped() {
        return dropped.get();
    }

    public long written() {
        return written.get();
    }

    public int depth() {
        return queue.size();
    }

    private void loop() {
        List<RequestEvent> batch = new ArrayList<>(BATCH);
        while (running || !queue.isEmpty()) {
            try {
                RequestEvent first = queue.pollFirst(200, TimeUnit.MILLISECONDS);
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch, BATCH - 1);
                }
                flush(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            }
        }
        flush(batch);
    }

    /** Writes one batch; on failure puts it back at the head (oldest first) and backs off. */
    private void flush(List<RequestEvent> batch) {
        try {
            if (!batch.isEmpty()) {
                List<EventRow> rows = batch.stream().map(AsyncEventWriter::toRow).toList();
                database.inTransaction(s -> {
                    s.getMapper(EventMapper.class).insertBatch(rows);
                    addSpend(s.getMapper(SmartMapper.class), batch); // K-2: spend from event costs
                    return null;
                });
                written.addAndGet(rows.size());
            }
            flushTouches();
            batch.clear();
        } catch (RuntimeException e) {
            log.warn("request events not written yet ({} queued): {}", queue.size() + batch.size(), e.toString());
            for (int i = batch.size() - 1; i >= 0; i--) {
                if (!queue.offerFirst(batch.get(i))) {
                    dropped.incrementAndGet();
                }
            }
            batch.clear();
            pause();
        }
    }

    private static void addSpend(SmartMapper mapper, List<RequestEvent> batch) {
        Map<Long, Long> perKey = new HashMap<>();
        for (RequestEvent e : batch) {
            if (e.keyId() != null && e.costMicros() > 0) {
                perKey.merge(e.keyId(), e.costMicros(), Long::sum);
            }
        }
        perKey.forEach(mapper::addSpent);
    }

    private void flushTouches() {
        List<AccountTouch> pendingTouches;
        List<ServedModel> pendingServed;
        synchronized (touches) {
            if (touches.isEmpty()) {
                return;
            }
            pendingTouches = new ArrayList<>(touches.values());
            pendingServed = new ArrayList<>(served.values());
            touches.clear();
            served.clear();
        }
        database.inTransaction(s -> {
            EventMapper mapper = s.getMapper(EventMapper.class);
            pendingTouches.forEach(mapper::updateAccountTouches);
            if (!pendingServed.isEmpty()) {
                mapper.upsertServedModels(pendingServed);
            }
            return null;
        });
    }

    private void pause() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    static EventRow toRow(RequestEvent e) {
        return new EventRow(null, e.requestId(), e.keyId(), e.endpoint(), e.requestedModel(), e.modelKey(),
                e.stream(), e.accountId(), e.groupId(), e.outcome().wire(), e.status(), e.errorCode(),
                e.reasonCode(), json(e.attempts()), json(e.rejections()), e.usage().inputTokens(),
                e.usage().outputTokens(), e.usage().cacheReadTokens(), e.usage().cacheWriteTokens(),
                e.costMicros(), e.ttftMs(), e.latencyMs(), e.clientIp(), e.createdAt());
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Stops accepting the wait, writes everything still queued, then returns (O-5). */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
