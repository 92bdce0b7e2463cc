package dev.detour.adapter.db;

import dev.detour.adapter.journal.EventJournal;
import dev.detour.adapter.journal.EventJournal.Position;
import dev.detour.adapter.journal.EventJournal.Read;
import dev.detour.adapter.journal.JournalEntry;
import dev.detour.adapter.journal.MemoryFolder;
import dev.detour.gateway.port.EventSink;
import dev.detour.gateway.port.RequestEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Request events and account usage touches, written to MariaDB in batches (SPEC §1, N-2, N-4, D-2, D-5).
 *
 * <p>A request thread appends its event to the local {@link EventJournal} (a copy into a mapped page, of a
 * tmpfs file when a memory folder is at hand: no system call, no fsync; a sync thread copies and syncs every
 * {@value #SYNC_MILLIS} ms for all of them) and hands a memory copy to the database thread. So a killed process loses nothing the request
 * threads appended (the kernel holds the pages); a power loss can cost the last {@value #SYNC_MILLIS} ms. When the memory queue is full (the database
 * has been away a while) newer events stay in the journal only ("spilled") and the database thread
 * reads them back from there, in order, once it has caught up: an outage of any length loses nothing
 * while the disk has room. Writes are idempotent (unique request id, INSERT IGNORE, spend only for new
 * rows), so a replay after a crash between the commit and its acknowledgement adds nothing twice.
 *
 * <p>D-5: {@link #started} journals, per request, the event to log should the process die before the
 * request ends; at start-up the database thread replays what the previous run left in this journal
 * slot and logs each started request without a finished event as that interrupted event.
 */
public final class AsyncEventWriter implements EventSink, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AsyncEventWriter.class);
    private static final int BATCH = 500;
    /**
     * Journal records read per batch of a replay: a request journals two (started, finished), so a batch of
     * records holds about {@link #BATCH} finished events, as a batch from the memory queue does. A replay that
     * read {@code BATCH} records wrote half the events per transaction the memory queue does, and under full
     * load (each transaction waits its turn for two busy cores) a spill could then never catch up.
     */
    private static final int RECORDS = 2 * BATCH;
    static final long SYNC_MILLIS = 100;
    private static final long SEGMENT_BYTES = 8L << 20;
    private static final long RETRY_MILLIS = 500;
    private static final long CLOSE_MILLIS = 30_000;
    /**
     * How long the writer waits after the first event of a batch for more to join it. Each transaction costs
     * about the same whatever its size (a prepare, the key spend and account updates, a commit with its redo
     * log fsync), and a writer that takes only what already waits wrote ~27 events per transaction at 15k req/s:
     * half of MariaDB's CPU per request and a tenth of Detour's went to those fixed costs (docs/performance.md,
     * session 28). An event is stored this much later; it is in the journal from the moment it ends.
     */
    static final long GATHER_MILLIS = 20;

    /** The writer's wait for a batch to fill; tests hold it until they have emitted what it should gather. */
    interface Gathering {
        void await() throws InterruptedException;
    }

    /** With no event for this long the writer flushes the account counters alone (its own beat). */
    static final long IDLE_MILLIS = 200;

    /**
     * While events keep coming, the account counters are flushed at most this often, not after every batch: a
     * flush is one UPDATE per account served since the last one, so with a 200-account pool one after every
     * ~20 ms batch was ~190 row updates per batch, about one per request and as much of MariaDB's CPU as the
     * event rows themselves (docs/performance.md, session 29). When the queue is empty after a batch (light load,
     * a test) the counters follow at once, as before — but not after a batch read back from a spill, where the
     * queue is always empty ({@code touchesIntervalPassed}).
     */
    static final long TOUCH_FLUSH_MILLIS = 1_000;

    /** An event's memory copy and the journal segment that holds it (segments are deleted once written). */
    private record Pending(RequestEvent event, long segment) {
    }

    private final EventBatches batches;
    private final EventJournal journal;
    private final LinkedBlockingDeque<Pending> queue;
    private final ReentrantLock appendLock = new ReentrantLock();
    /**
     * D-5, under appendLock: each request started and not finished, with the start record it was journaled with
     * (null when it could not be encoded), carried into each new segment at rotation as those bytes: under load
     * a rotation carries ~1,000 open requests while holding the lock every request takes, so it copies them
     * rather than encoding each again, and one request that cannot be encoded never stops the others.
     */
    private final Map<String, byte[]> open = new HashMap<>();
    /** Under appendLock: where the events that are only in the journal begin; null while none are. */
    private Position spilledFrom;
    /** Under appendLock: the last append failed (logged once until one succeeds again). */
    private boolean journalFailing;
    /** Under appendLock: the last rotation failed (logged once until one succeeds). */
    private boolean rotationFailing;
    private final TouchTally touches = new TouchTally();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong interrupted = new AtomicLong();
    private final AtomicLong keptFlushes = new AtomicLong();
    private final Thread thread;
    private final Thread syncThread;
    private volatile boolean running = true;
    private volatile long closeDeadlineNanos = Long.MAX_VALUE;
    private volatile boolean spilled;
    /** Writer thread: events are in the memory queue again, and the journal's last stretch is still being written. */
    private volatile boolean handingOver;
    /** A spill pass that wrote at most this many events is short enough to hand over to the memory queue. */
    private final int handOverBelow;
    private final AtomicLong spillsEnded = new AtomicLong();
    private final Runnable afterSpillPass;
    private final Gathering gathering;
    private final AtomicLong batchesWritten = new AtomicLong();
    /** Events offered to the memory queue and not written yet ({@link #depth()}). */
    private final AtomicInteger unwritten = new AtomicInteger();
    /** Writer thread: events in the database whose account counters wait for the next flush. */
    private long awaitingTouches;
    /** Writer thread: of those, the memory queue's (still counted in {@link #unwritten}). */
    private int queuedAwaitingTouches;
    /** Writer thread: when the account counters were last flushed. */
    private long touchesFlushedNanos;
    private final LongSupplier nanoTime;
    private boolean databaseAway;
    /** Until the previous run's segments are replayed, this run deletes only its own. */
    private boolean previousRunDone;
    private long awaySinceNanos;

    /** {@code journalRoot}: {@code <data dir>/journal}; this writer takes a free slot under it (mapped in place). */
    public AsyncEventWriter(Database database, int capacity, Path journalRoot) {
        this(database, capacity, journalRoot, null);
    }

    /**
     * With {@code memoryBase} (a tmpfs such as {@code /dev/shm}; null: none) the journal maps its segments in a
     * private folder there and copies them into {@code journalRoot} at each sync ({@link EventJournal}).
     */
    public AsyncEventWriter(Database database, int capacity, Path journalRoot, Path memoryBase) {
        this(database, capacity, journalRoot, memoryBase, SEGMENT_BYTES, () -> { });
    }

    /** With journal segments of {@code segmentBytes} (tests rotate small segments). */
    AsyncEventWriter(Database database, int capacity, Path journalRoot, long segmentBytes) {
        this(database, capacity, journalRoot, null, segmentBytes, () -> { });
    }

    /**
     * Tests: {@code afterSpillPass} runs on the writer thread after each pass over spilled events, before it
     * looks how far the journal has grown meanwhile (a test appends there, as steady load always does).
     */
    AsyncEventWriter(Database database, int capacity, Path journalRoot, Path memoryBase, long segmentBytes,
            Runnable afterSpillPass) {
        this(database, capacity, journalRoot, memoryBase, segmentBytes, afterSpillPass,
                () -> Thread.sleep(GATHER_MILLIS));
    }

    /** Tests: {@code gathering} in place of the writer's {@value #GATHER_MILLIS} ms wait for a batch to fill. */
    AsyncEventWriter(Database database, int capacity, Path journalRoot, Path memoryBase, long segmentBytes,
            Runnable afterSpillPass, Gathering gathering) {
        this(database, capacity, journalRoot, memoryBase, segmentBytes, afterSpillPass, gathering, System::nanoTime);
    }

    /** Tests: {@code nanoTime} is the clock of the counters' flush cadence ({@value #TOUCH_FLUSH_MILLIS} ms). */
    AsyncEventWriter(Database database, int capacity, Path journalRoot, Path memoryBase, long segmentBytes,
            Runnable afterSpillPass, Gathering gathering, LongSupplier nanoTime) {
        this.afterSpillPass = afterSpillPass;
        this.gathering = gathering;
        this.nanoTime = nanoTime;
        this.touchesFlushedNanos = nanoTime.getAsLong();
        this.batches = new EventBatches(database.dataSource());
        try {
            OwnerOnlyFiles.directory(journalRoot); // the events are the request log; like the database files
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the event journal folder " + journalRoot, e);
        }
        Path memoryRoot = memoryBase == null ? null : MemoryFolder.under(memoryBase, journalRoot);
        this.journal = EventJournal.open(journalRoot, memoryRoot, segmentBytes);
        this.queue = new LinkedBlockingDeque<>(capacity);
        this.handOverBelow = Math.max(1, capacity / 2);
        this.thread = new Thread(this::loop, "detour-event-writer");
        this.thread.setDaemon(true);
        this.syncThread = new Thread(this::syncLoop, "detour-event-journal-sync");
        this.syncThread.setDaemon(true);
        this.thread.start();
        this.syncThread.start();
    }

    @Override
    public void started(RequestEvent ifInterrupted) {
        byte[] record = record(JournalEntry.Kind.STARTED, ifInterrupted); // encoded before the lock: it covers a copy
        appendLock.lock();
        try {
            open.put(ifInterrupted.requestId(), record);
            append(record, ifInterrupted);
            rotateIfFull();
        } finally {
            appendLock.unlock();
        }
    }

    @Override
    public void emit(RequestEvent event) {
        byte[] record = record(JournalEntry.Kind.FINISHED, event);
        appendLock.lock();
        try {
            open.remove(event.requestId());
            Position before = journal.end();
            boolean journaled = append(record, event);
            if (spilled) {
                if (!journaled) {
                    dropped.incrementAndGet(); // neither on disk nor in memory
                }
            } else if (!offer(new Pending(event, journal.end().segment()))) {
                if (journaled) {
                    spilledFrom = before; // this and every later event: journal only, until caught up
                    spilled = true;
                } else {
                    dropped.incrementAndGet();
                }
            }
            rotateIfFull();
        } finally {
            appendLock.unlock();
        }
    }

    /** Into the memory queue, counted first: {@link #depth()} never misses an event on its way to the writer. */
    private boolean offer(Pending pending) {
        unwritten.incrementAndGet();
        if (queue.offerLast(pending)) {
            return true;
        }
        unwritten.decrementAndGet();
        return false;
    }

    /** The journal record of an event, or null when it cannot be encoded (logged; the event stays in memory). */
    private static byte[] record(JournalEntry.Kind kind, RequestEvent event) {
        try {
            return EventJournal.record(kind, event);
        } catch (IOException | RuntimeException e) {
            log.error("request {} not journaled, its event waits in memory only: {}", event.requestId(), e.toString());
            return null;
        }
    }

    /** Under appendLock. False when the journal could not take it (disk full, I/O error): logged, not thrown. */
    private boolean append(byte[] record, RequestEvent event) {
        if (record == null) {
            return false;
        }
        try {
            journal.append(record);
            if (journalFailing) {
                journalFailing = false;
                log.info("event journal {} takes events again", journal.dir());
            }
            return true;
        } catch (IOException | RuntimeException e) {
            if (!journalFailing) {
                journalFailing = true; // one line per transition, not one per request
                log.error("event journal {} does not take events (request {}): {}; until it does, events wait in"
                        + " memory only", journal.dir(), event.requestId(), e.toString());
            }
            return false;
        }
    }

    /** Under appendLock: a new segment starts with the requests still open, so older ones can go once written. */
    private void rotateIfFull() {
        if (!journal.full()) {
            return;
        }
        try {
            journal.rotate();
            for (byte[] started : open.values()) {
                if (started != null) {
                    journal.append(started);
                }
            }
            rotationFailing = false;
        } catch (IOException | RuntimeException e) {
            if (!rotationFailing) {
                rotationFailing = true; // a full disk: tried on every append until it works, said once
                log.warn("event journal segment not rotated (tried again with the next events): {}", e.toString());
            }
        }
    }

    @Override
    public void touchAccount(long accountId, boolean success, Instant at, String modelKey) {
        touches.add(accountId, success, at, modelKey);
    }

    /** Events lost: counted only when neither the journal nor the memory queue could take one. */
    public long dropped() {
        return dropped.get();
    }

    /** Events written so far; an event counts once its request's account touches are written too. */
    public long written() {
        return written.get();
    }

    /** D-5: requests a previous run left started and unfinished, logged as interrupted at this start. */
    public long interrupted() {
        return interrupted.get();
    }

    /**
     * Events from the memory queue not written yet: waiting in it, or taken by the writer (which holds a batch
     * for {@value #GATHER_MILLIS} ms to fill it), or written with its account counters still to flush
     * ({@value #TOUCH_FLUSH_MILLIS} ms at most). Zero once every such event and its counters are in the database.
     */
    public int depth() {
        return unwritten.get();
    }

    /** D-2: newer events are in the journal only (the memory queue filled while the database was away). */
    public boolean spilled() {
        return spilled;
    }

    /** Transactions that wrote events (a batch written again after a failure counts once). */
    long batchesWritten() {
        return batchesWritten.get();
    }

    /** D-2: spills that ended: the journal-only events written and later ones in the memory queue again. */
    long spillsEnded() {
        return spillsEnded.get();
    }

    /** The folder this instance journals into. */
    public Path journalDir() {
        return journal.dir();
    }

    /** Where the journal maps its segments (a tmpfs folder), or null when it maps them in {@link #journalDir()}. */
    public Path journalMemoryDir() {
        return journal.memoryDir();
    }

    private void loop() {
        replayPreviousRun();
        List<RequestEvent> batch = new ArrayList<>(BATCH);
        List<Pending> taken = new ArrayList<>(BATCH);
        while (running || !queue.isEmpty() || spilled) {
            if (pastDeadline()) {
                return;
            }
            try {
                Pending first = queue.pollFirst(IDLE_MILLIS, TimeUnit.MILLISECONDS);
                if (first != null) {
                    taken.add(first);
                    queue.drainTo(taken, BATCH - 1);
                    if (taken.size() < BATCH && running && !spilled) { // spilled: new events skip the queue
                        gathering.await();
                        queue.drainTo(taken, BATCH - taken.size());
                    }
                    taken.forEach(p -> batch.add(p.event()));
                    queuedAwaitingTouches += taken.size();
                    if (!writeReliably(batch, false, this::touchesDue)) {
                        return;
                    }
                    release(taken.get(taken.size() - 1).segment());
                    taken.clear();
                    batch.clear();
                } else if (spilled) {
                    if (!replaySpilled()) {
                        return;
                    }
                } else {
                    writeReliably(batch, false); // touches only: kept sums are retried on this beat, idle or not
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        flushKeptTouches();
    }

    /**
     * D-2/D-5: what an earlier run left in this slot, in journal order; then its started requests with no
     * finished event, as their interrupted events; then its segments are deleted.
     */
    private void replayPreviousRun() {
        Position until = journal.previousRunEnd();
        if (until == null) {
            previousRunDone = true;
            return;
        }
        Map<String, RequestEvent> unfinished = new LinkedHashMap<>();
        long replayed = 0;
        try {
            Position from = new Position(journal.segments().get(0), 0);
            while (true) {
                List<Read> reads = journal.read(from, until, RECORDS);
                List<RequestEvent> finished = new ArrayList<>(reads.size());
                for (Read r : reads) {
                    RequestEvent e = r.entry().event();
                    if (r.entry().kind() == JournalEntry.Kind.STARTED) {
                        unfinished.put(e.requestId(), e);
                    } else {
                        unfinished.remove(e.requestId());
                        finished.add(e);
                    }
                }
                if (!writeReliably(finished, true)) {
                    return;
                }
                replayed += finished.size();
                if (reads.size() < RECORDS) {
                    break;
                }
                from = reads.get(reads.size() - 1).after();
                journal.deleteBefore(from.segment(), 0); // the open ones were carried into this segment
            }
            List<RequestEvent> cut = new ArrayList<>(unfinished.values());
            for (int i = 0; i < cut.size(); i += BATCH) {
                if (!writeReliably(new ArrayList<>(cut.subList(i, Math.min(cut.size(), i + BATCH))), true)) {
                    return;
                }
            }
            interrupted.addAndGet(cut.size());
            journal.deleteBefore(journal.runStart().segment(), 0);
            previousRunDone = true;
            log.info("event journal replayed: {} request events of the previous run, {} requests it left unfinished"
                    + " logged as {}", replayed, cut.size(), RequestEvent.INTERRUPTED);
        } catch (IOException e) {
            log.error("event journal of the previous run not readable (kept in {}): {}", journal.dir(), e.toString());
        }
    }

    /**
     * The events that went to the journal only, read back in order until the memory queue can take over.
     * The hand-over cannot wait for the journal to stop growing: under steady load a request appends while
     * each batch is written, so a writer that waited for a pass to end exactly at the journal's end stayed on
     * the journal for as long as the load lasted (every event read back from disk, both records of each
     * request decoded, its segments kept; the backlog written minutes after the load ended). So once a pass
     * is short enough for the memory queue to hold what arrives during the next one, later events go to the
     * queue again, and this thread writes the journal's last stretch before it takes any of them.
     */
    private boolean replaySpilled() {
        Position from;
        Position until;
        appendLock.lock();
        try {
            from = spilledFrom;
            until = journal.end();
        } finally {
            appendLock.unlock();
        }
        long began = System.nanoTime();
        long total = 0;
        log.info("request events spill to the journal {}: the memory queue ({}) is full; they are written from there"
                + " in order", journal.dir(), queue.size() + queue.remainingCapacity());
        while (true) {
            long written = replayJournal(from, until);
            if (written < 0) {
                return false;
            }
            total += written;
            afterSpillPass.run();
            appendLock.lock();
            try {
                from = until;
                until = journal.end();
                if (from.equals(until) || written <= handOverBelow) {
                    spilledFrom = null;
                    spilled = false; // later events go to the memory queue again
                    handingOver = true;
                }
            } finally {
                appendLock.unlock();
            }
            if (handingOver) {
                long last = replayJournal(from, until);
                if (last < 0) {
                    return false; // closing: handingOver stays, so the journal is kept for the next start
                }
                release(until.segment());
                handingOver = false;
                spillsEnded.incrementAndGet();
                log.info("request events caught up: {} spilled events written from the journal in {} ms; newer ones"
                        + " go through the memory queue again", total + last,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
                return true;
            }
        }
    }

    /**
     * Writes the finished events journaled in [from, until), in order, releasing each segment once its events
     * are written. An unreadable journal is logged and read again after a pause. Returns the events written, or
     * -1 when {@link #close()}'s deadline passed first.
     */
    private long replayJournal(Position from, Position until) {
        long written = 0;
        Position at = from;
        while (at.compareTo(until) < 0) {
            List<Read> reads;
            try {
                reads = journal.read(at, until, RECORDS);
            } catch (IOException e) {
                log.error("spilled request events not readable from {}: {}", journal.dir(), e.toString());
                if (pastDeadline()) {
                    return -1;
                }
                pause();
                continue;
            }
            List<RequestEvent> finished = new ArrayList<>(reads.size());
            for (Read r : reads) {
                if (r.entry().kind() == JournalEntry.Kind.FINISHED) {
                    finished.add(r.entry().event());
                }
            }
            if (!writeReliably(finished, false, this::touchesIntervalPassed)) {
                return -1;
            }
            written += finished.size();
            if (reads.size() < RECORDS) {
                return written; // read up to until (a torn record ends its segment's read)
            }
            at = reads.get(reads.size() - 1).after();
            release(at.segment());
        }
        return written;
    }

    /**
     * Writes one batch and then the touches, retrying while the database is away (one log line when it
     * goes, one when it is back). A request touches its account before it emits its event, so touches
     * are drained first and a counted event always has its touch written. {@code maybeWritten}: the
     * batch may already be in the database (a replay, or a retry after a failure whose commit is unknown).
     * False only when {@link #close()}'s deadline passed first (the events stay in the journal).
     */
    private boolean writeReliably(List<RequestEvent> batch, boolean maybeWritten) {
        return writeReliably(batch, maybeWritten, () -> true);
    }

    /**
     * As above; {@code withTouches}, asked once the batch is written, false leaves the account counters for a
     * later flush, and the batch's events count as written (and leave {@link #depth()}) with that flush.
     */
    private boolean writeReliably(List<RequestEvent> batch, boolean maybeWritten, BooleanSupplier withTouches) {
        boolean retry = maybeWritten;
        while (true) {
            touches.drain();
            try {
                batches.writeEvents(batch, retry);
                if (!batch.isEmpty()) {
                    backAgain(); // an empty batch does not ask the database anything
                    batchesWritten.incrementAndGet();
                }
                awaitingTouches += batch.size();
                if (withTouches.getAsBoolean()) {
                    writeTouches();
                    touchesFlushedNanos = nanoTime.getAsLong();
                    countFlushed();
                }
                return true;
            } catch (SQLException | RuntimeException e) {
                away(batch.size(), e);
                retry = true;
            }
            if (pastDeadline()) {
                return false;
            }
            pause();
        }
    }

    /**
     * After a memory-queue batch is written: flush the counters now when no event came meanwhile, else at most
     * every second. Asked once the batch is written, not when it was taken: a batch drains the queue, so before
     * the write the queue was nearly always empty and the counters were flushed after every ~20 ms batch under
     * load (an UPDATE per account served, up to ~190 with a 200-account pool; session 51, N-10 on JDK 25).
     */
    private boolean touchesDue() {
        return queue.isEmpty() || touchesIntervalPassed();
    }

    /**
     * The flush interval has passed since the last flush (or the writer is closing): the rule after a memory batch
     * with events behind it, and the only rule after a batch read back from the journal: while spilled new events
     * skip the memory queue, so it is empty after every batch, and the counters went out after each batch read back
     * (up to {@value #RECORDS} journal records) — with a 200-account pool ~380 row statements per batch, on the very
     * writer that had fallen behind (N-10: on JDK 25 the pool leg's catch-up after a round was two to five times the
     * 4-account leg's, session 52). Once the memory queue takes over again, or the writer idles, the counters follow
     * as after any batch.
     */
    private boolean touchesIntervalPassed() {
        return !running
                || nanoTime.getAsLong() - touchesFlushedNanos >= TimeUnit.MILLISECONDS.toNanos(TOUCH_FLUSH_MILLIS);
    }

    private void away(int batchSize, Exception e) {
        if (!databaseAway) {
            databaseAway = true;
            awaySinceNanos = System.nanoTime();
            log.warn("request events not written: the database did not take them ({}); they wait in the journal {}"
                    + " and are written when it answers again", e.toString(), journal.dir());
        }
    }

    private void backAgain() {
        if (databaseAway) {
            databaseAway = false;
            log.info("request events written again after {} s without the database",
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - awaySinceNanos));
        }
    }

    /**
     * Flushes the account counters. A flush that is certainly not in the database keeps its sums for the next
     * one, which comes with the next event batch or, on an idle instance, on this thread's own beat (every
     * {@value #IDLE_MILLIS} ms); only a flush whose commit may have landed is dropped (sent again, it could count
     * twice). True when nothing is left to flush.
     */
    private boolean writeTouches() {
        try {
            batches.writeTouches(touches.accounts(), touches.served());
        } catch (SQLException | RuntimeException e) {
            if (TransactionRetry.isConflict(e) || e instanceof EventBatches.NotCommitted) {
                // G-4: other instances kept winning the same account rows (Galera certification), or D-1: the
                // database is away; either way the flush rolled back, so its sums stay instead of being lost
                keptFlushes.incrementAndGet();
                return false;
            }
            log.warn("account usage counters not updated: {}", e.toString());
        }
        touches.clear();
        return true;
    }

    /** Counter flushes whose sums were kept for a later flush (a conflict, or the database away). */
    long keptFlushes() {
        return keptFlushes.get();
    }

    /** At close: counters still kept (a last flush that lost a conflict) get until the close deadline. */
    private void flushKeptTouches() {
        if (pastDeadline()) {
            return; // halted as a killed process would be: nothing more is written
        }
        touches.drain();
        while (!writeTouches() && !pastDeadline()) {
            pause();
            touches.drain();
        }
        countFlushed(); // a last batch written while the counters waited for their flush
    }

    /** The events whose counters just went out count as written now, and leave {@link #depth()}. */
    private void countFlushed() {
        written.addAndGet(awaitingTouches);
        unwritten.addAndGet(-queuedAwaitingTouches);
        awaitingTouches = 0;
        queuedAwaitingTouches = 0;
    }

    /** Deletes the segments before {@code segment}: every finished event in them is in the database. */
    private void release(long segment) {
        journal.deleteBefore(segment, previousRunDone ? 0 : journal.runStart().segment());
    }

    private boolean pastDeadline() {
        return !running && System.nanoTime() - closeDeadlineNanos > 0;
    }

    private void pause() {
        try {
            Thread.sleep(RETRY_MILLIS); // back-off while the database is away; never on a request thread
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private void syncLoop() {
        while (running) {
            try {
                Thread.sleep(SYNC_MILLIS); // D-2 group commit: one fsync for every append of the interval
            } catch (InterruptedException e) {
                return;
            }
            journal.sync();
        }
    }

    /** Ends the writer loop (waiting at most {@code writerMillis} for it) and the fsync thread. */
    private void stopThreads(long writerMillis) {
        running = false;
        try {
            thread.join(writerMillis);
            syncThread.interrupt();
            syncThread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Tests: stops as a killed process would, writing nothing more and leaving the journal as it is for
     * the next writer on the same folder (the lock goes, as it goes with a dead process).
     */
    void halt() {
        closeDeadlineNanos = System.nanoTime();
        stopThreads(CLOSE_MILLIS);
        appendLock.lock();
        try {
            journal.close(false);
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * Writes everything still queued or spilled (O-5), waiting at most 30 s for the database; whatever it
     * could not write stays in the journal for the next start. A journal with nothing left to write and no
     * request still open is deleted.
     */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        closeDeadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_MILLIS);
        stopThreads(CLOSE_MILLIS + 5_000);
        appendLock.lock();
        try {
            boolean drained = !thread.isAlive() && queue.isEmpty() && !spilled && !handingOver && open.isEmpty();
            if (!drained) {
                log.warn("request events left in the journal for the next start: {} queued, spilled {},"
                        + " {} requests still open", queue.size(), spilled || handingOver, open.size());
            }
            journal.close(drained);
        } finally {
            appendLock.unlock();
        }
    }
}
