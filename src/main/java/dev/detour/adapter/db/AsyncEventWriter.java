package dev.detour.adapter.db;

import dev.detour.gateway.EventSink;
import dev.detour.gateway.RequestEvent;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
    private static final int BATCH = 500;

    private final EventBatches batches;
    private final LinkedBlockingDeque<RequestEvent> queue;
    private final TouchTally touches = new TouchTally();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    public AsyncEventWriter(Database database, int capacity) {
        this.batches = new EventBatches(database.dataSource());
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
        touches.add(accountId, success, at, modelKey);
    }

    public long dropped() {
        return dropped.get();
    }

    /** Events written so far; an event counts once its request's account touches are written too. */
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

    /**
     * Writes one batch, then the touches. Touches are drained first: a request touches its account
     * before it emits its event, so a counted event always has its touch written. A failed batch goes
     * back to the head of the queue (oldest first) after a pause; failed touches are dropped (logged).
     */
    private void flush(List<RequestEvent> batch) {
        touches.drain();
        try {
            batches.writeEvents(batch);
        } catch (SQLException | RuntimeException e) {
            log.warn("request events not written yet ({} queued): {}", queue.size() + batch.size(), e.toString());
            requeue(batch);
            pause();
            return;
        }
        writeTouches();
        written.addAndGet(batch.size());
        batch.clear();
    }

    private void writeTouches() {
        try {
            batches.writeTouches(touches.accounts(), touches.served());
        } catch (SQLException | RuntimeException e) {
            log.warn("account usage counters not updated: {}", e.toString());
        } finally {
            touches.clear();
        }
    }

    private void requeue(List<RequestEvent> batch) {
        for (int i = batch.size() - 1; i >= 0; i--) {
            if (!queue.offerFirst(batch.get(i))) {
                dropped.incrementAndGet();
            }
        }
        batch.clear();
    }

    private void pause() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
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
