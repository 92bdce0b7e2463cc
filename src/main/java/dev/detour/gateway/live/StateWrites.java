package dev.detour.gateway.live;

import dev.detour.gateway.port.DatabaseUnavailable;
import dev.detour.gateway.port.PendingState;
import dev.detour.gateway.port.StateJournal;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * D-1: the pool-state changes this instance already applied in memory (failures, success clearing,
 * group halts), written to MariaDB by one background thread in the order they happened. A write
 * the database cannot take now stays at the head and is retried until the database answers again;
 * every write is idempotent (a failure or success carries its id to the store's ledger; a halt sets
 * absolute values), so a retry after an ambiguous commit changes nothing twice. Until a write is
 * durable, a reload of the snapshot re-applies it ({@link #overlay}), so a cooldown is never lost;
 * and it is in the local {@link StateJournal} from before its request is answered until the queue is
 * empty, so neither a crash nor a stop during a database outage loses it (the next run writes it).
 */
public final class StateWrites implements AutoCloseable {
    /** One state change: already in memory, to be made durable. */
    public interface Write {
        /** Writes it; throws when the database did not take it. */
        void persist();

        /** Its in-memory effect on a freshly loaded view (the same pure rule the store applies). */
        PoolSnapshot.View overlay(PoolSnapshot.View view);

        /** For the log: what it is, never a secret. */
        String describe();

        /** The change as data, for the journal. */
        PendingState pending();
    }

    private static final Logger log = LoggerFactory.getLogger(StateWrites.class);
    /** Between two tries of a write the database refused; the probe notices the return within a second. */
    private static final long RETRY_PAUSE_MS = 500;
    /** A write the answering database keeps refusing (a deleted account) is given up after this many tries. */
    private static final int MAX_TRIES_WHILE_ANSWERING = 5;

    private final DatabaseHealth health;
    private final PoolSnapshot snapshot;
    private final StateJournal journal;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Write> pending = new ArrayDeque<>();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong abandoned = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    /** Registers itself as the snapshot's overlay, so every reload keeps what is not durable yet. */
    public StateWrites(DatabaseHealth health, PoolSnapshot snapshot, StateJournal journal) {
        this.health = health;
        this.snapshot = snapshot;
        this.journal = journal;
        snapshot.overlayWith(this::overlay);
        this.thread = new Thread(this::loop, "detour-state-writer");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Queues a change the caller has just applied in memory (call it under the snapshot's write lock). */
    public void add(Write write) {
        lock.lock();
        try {
            journal.append(write.pending()); // before the request is answered: a crash now keeps it
            pending.addLast(write);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Re-applies every write not yet durable, oldest first, to a freshly loaded view. */
    public PoolSnapshot.View overlay(PoolSnapshot.View view) {
        PoolSnapshot.View result = view;
        for (Write w : snapshotOfPending()) {
            result = w.overlay(result);
        }
        return result;
    }

    /**
     * Read-your-writes for operators (admin API, console): waits until every change queued so far is
     * durable, at most {@code max}, and not at all while the database is away (the page then shows
     * the stored state and the outage banner).
     */
    public void awaitDrained(DatabaseHealth health, java.time.Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        lock.lock();
        try {
            while (!pending.isEmpty() && health.available() && System.nanoTime() < deadline) {
                changed.await(20, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    public int pending() {
        lock.lock();
        try {
            return pending.size();
        } finally {
            lock.unlock();
        }
    }

    public long written() {
        return written.get();
    }

    /** Writes given up because the database (while answering) kept refusing them. */
    public long abandoned() {
        return abandoned.get();
    }

    private List<Write> snapshotOfPending() {
        lock.lock();
        try {
            return List.copyOf(pending);
        } finally {
            lock.unlock();
        }
    }

    private void loop() {
        int tries = 0;
        while (true) {
            Write head = awaitHead();
            if (head == null) {
                return;
            }
            try {
                head.persist();
                health.answered();
                tries = 0;
                removeHead(head);
                written.incrementAndGet();
            } catch (RuntimeException e) {
                if (DatabaseUnavailable.isBehind(e)) {
                    health.failed(e);
                    pause();
                } else if (++tries >= MAX_TRIES_WHILE_ANSWERING) {
                    log.error("state write given up after {} tries ({}): {}", tries, head.describe(), e.toString());
                    abandoned.incrementAndGet();
                    tries = 0;
                    removeHead(head);
                } else {
                    pause();
                }
            }
        }
    }

    /** The oldest write, waiting for one; null once closed and drained (or closed for good). */
    private Write awaitHead() {
        lock.lock();
        try {
            while (pending.isEmpty()) {
                if (!running) {
                    return null;
                }
                changed.await(1, TimeUnit.SECONDS);
            }
            return pending.peekFirst();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Under the snapshot's write lock: a reload that read the database before this write committed
     * then still finds it pending and overlays it; one that starts after finds it in the database.
     */
    private void removeHead(Write head) {
        snapshot.whileLocked(() -> removeHeadNow(head));
    }

    private void removeHeadNow(Write head) {
        lock.lock();
        try {
            if (pending.peekFirst() == head) {
                pending.pollFirst();
            }
            if (pending.isEmpty()) {
                journal.clear(); // under the lock: no append slips between the check and the clear
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void pause() {
        lock.lock();
        try {
            changed.await(RETRY_PAUSE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits up to {@code maxMillis} for the queue to drain (shutdown, before the pool closes), then
     * stops the thread. Writes left are logged: the database did not come back in time.
     */
    public void close(long maxMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMillis);
        lock.lock();
        try {
            while (!pending.isEmpty() && System.nanoTime() < deadline) {
                changed.await(50, TimeUnit.MILLISECONDS);
            }
            if (!pending.isEmpty()) {
                log.error("{} state write(s) not written at shutdown: the database did not answer in time; "
                        + "they stay in the local journal and the next start writes them", pending.size());
            }
            running = false;
            pending.clear();
            changed.signalAll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
        thread.interrupt();
        journal.close();
    }

    @Override
    public void close() {
        close(10_000);
    }
}
