package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.adapter.journal.EventJournal;
import dev.detour.adapter.journal.JournalEntry;
import dev.detour.core.usage.TokenUsage;
import dev.detour.gateway.port.RequestEvent;
import dev.detour.gateway.port.RequestEvent.AttemptRecord;
import dev.detour.gateway.port.RequestEvent.RejectionRecord;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.Rows;
import dev.detour.testkit.TestDatabase;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.Statement;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** N-4 and the account touches: every event once and in order, one coalesced touch per account. */
class AsyncEventWriterIT {
    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00.125Z");

    @TempDir
    Path journal;

    @BeforeEach
    void rows() {
        TestDatabase.clean();
        Rows.execute("INSERT INTO groups_ (id, name, created_at, updated_at) VALUES (1, 'g', '2026-11-01 00:00:00', '2026-11-01 00:00:00')");
        for (int id = 1; id <= 2; id++) {
            Rows.execute("INSERT INTO accounts (id, name, group_id, platform, base_url, api_key_cipher, api_key_hint, "
                    + "model_mappings_json, created_at, updated_at) VALUES (" + id + ", 'a" + id + "', 1, 'openai', "
                    + "'http://x', 'c', 'sk-…0001', '[]', '2026-11-01 00:00:00', '2026-11-01 00:00:00')");
        }
        Rows.execute("INSERT INTO detour_keys (id, name, key_hash, key_hint, policy_json, created_at, updated_at) "
                + "VALUES (7, 'k', REPEAT('a', 64), 'dtr-…0001', '{}', '2026-11-01 00:00:00', '2026-11-01 00:00:00')");
    }

    @Test
    void closeWritesEveryEventInOrderWithSpendAndOneSummedTouchPerAccount() {
        AsyncEventWriter writer = new AsyncEventWriter(TestDatabase.database(), 100, journal);
        writer.touchAccount(1, true, T0.plusSeconds(3), "gpt-x");
        writer.touchAccount(1, false, T0.plusSeconds(2), null);
        writer.touchAccount(1, true, T0.plusSeconds(1), "gpt-x");
        writer.touchAccount(2, false, T0.plusSeconds(5), null);
        for (int i = 0; i < 5; i++) {
            writer.emit(event(i));
        }
        writer.close();

        assertEquals(5, writer.written());
        assertEquals(List.of("req00", "req01", "req02", "req03", "req04"),
                Rows.strings("SELECT TRIM(request_id) FROM request_events ORDER BY id").stream()
                        .map(s -> s.substring(0, 5)).toList());
        assertEquals(100 + 101 + 102 + 103 + 104, Rows.number("SELECT spent_micros FROM detour_keys WHERE id = 7"));
        assertEquals("2 1 2026-11-29 12:00:03.125", Rows.column("SELECT CONCAT(success_count, ' ', error_count, ' ', "
                + "last_used_at) AS t FROM accounts WHERE id = 1", "t"));
        assertEquals("0 1 2026-11-29 12:00:05.125", Rows.column("SELECT CONCAT(success_count, ' ', error_count, ' ', "
                + "last_used_at) AS t FROM accounts WHERE id = 2", "t"));
        assertEquals("gpt-x 2026-11-29 12:00:03.125", Rows.column("SELECT CONCAT(model_key, ' ', last_served_at) AS t "
                + "FROM account_served_models WHERE account_id = 1", "t"));
        assertEquals("[{\"account_id\":1,\"status\":200,\"failure_kind\":null,\"scope\":null,\"duration_ms\":4,"
                + "\"action\":\"final\",\"bridged_from\":null,\"bridged_to\":null}] 4 2", Rows.column("SELECT CONCAT(attempts_json, ' ', input_tokens, ' ', "
                + "output_tokens) AS t FROM request_events WHERE request_id LIKE 'req04%'", "t"));
    }

    /**
     * Events that end while the writer waits for its batch to fill go into the same transaction: under load a
     * transaction's fixed cost (prepare, updates, commit) is shared by hundreds of events instead of a few.
     */
    @Test
    void eventsEndingWhileTheWriterGathersAreWrittenInOneTransaction() throws Exception {
        CountDownLatch gathering = new CountDownLatch(1);
        CountDownLatch allEmitted = new CountDownLatch(1);
        AsyncEventWriter writer = new AsyncEventWriter(TestDatabase.database(), 100, journal, null, 1 << 20,
                () -> { }, () -> {
                    gathering.countDown();
                    allEmitted.await();
                });
        writer.emit(event(0));
        assertTrue(gathering.await(30, TimeUnit.SECONDS), "the writer took the first event and waits for more");
        assertEquals(1, writer.depth(), "an event the writer holds is still waiting to be written (/metrics)");
        for (int i = 1; i < 5; i++) {
            writer.emit(event(i));
        }
        assertEquals(5, writer.depth());
        allEmitted.countDown();
        writer.close();

        assertEquals(5, writer.written());
        assertEquals(1, writer.batchesWritten(), "one transaction for the five events");
        assertEquals(0, writer.depth());
        assertEquals(5, Rows.number("SELECT COUNT(*) FROM request_events"));
        assertEquals(100 + 101 + 102 + 103 + 104, Rows.number("SELECT spent_micros FROM detour_keys WHERE id = 7"));
    }

    /**
     * While events keep coming, the account counters wait for their flush (at most {@value
     * AsyncEventWriter#TOUCH_FLUSH_MILLIS} ms, or until the queue is empty after a batch) instead of an UPDATE per
     * account after every batch; events written meanwhile still count in depth() and not yet in written(), so
     * "nothing waits" still means "events and counters are in the database".
     */
    @Test
    void underLoadTheAccountCountersAreFlushedOncePerIntervalAndWhenTheQueueEmpties() throws Exception {
        SynchronousQueue<Integer> gathered = new SynchronousQueue<>();
        SynchronousQueue<Boolean> proceed = new SynchronousQueue<>();
        AtomicInteger gathers = new AtomicInteger();
        AtomicLong nanos = new AtomicLong();
        AsyncEventWriter writer = new AsyncEventWriter(TestDatabase.database(), 5_000, journal, null, 64 << 20,
                () -> { }, () -> {
                    gathered.put(gathers.incrementAndGet());
                    proceed.take();
                }, nanos::get);
        writer.touchAccount(1, true, T0, "gpt-x");
        writer.emit(numbered(0));
        assertEquals(1, gathered.take(), "the writer holds event 0 and waits for more");
        for (int i = 1; i < 700; i++) { // 699 more: the first batch takes 500, 200 stay queued
            writer.emit(numbered(i));
        }
        proceed.put(true);

        assertEquals(2, gathered.take(), "the writer gathers its second batch: the first is written");
        assertEquals(500, Rows.number("SELECT COUNT(*) FROM request_events"));
        assertEquals(0, Rows.number("SELECT success_count FROM accounts WHERE id = 1"),
                "events still queued behind the batch: its counters wait for their flush");
        assertEquals(0, writer.written(), "written counts an event once its counters are in the database");
        assertEquals(700, writer.depth(), "the written batch still waits for its counters, with the queued 200");
        writer.touchAccount(1, false, T0.plusSeconds(1), null);
        for (int i = 700; i < 1_400; i++) { // the second batch takes 300 of these, 400 stay queued
            writer.emit(numbered(i));
        }
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(AsyncEventWriter.TOUCH_FLUSH_MILLIS));
        proceed.put(true);

        assertEquals(3, gathered.take());
        assertEquals(1_000, Rows.number("SELECT COUNT(*) FROM request_events"));
        assertEquals("1 1", Rows.column("SELECT CONCAT(success_count, ' ', error_count) AS t FROM accounts "
                + "WHERE id = 1", "t"), "an interval passed: flushed although events are still queued");
        assertEquals(1_000, writer.written());
        assertEquals(400, writer.depth());
        writer.touchAccount(2, true, T0.plusSeconds(2), null);
        proceed.put(true); // the last 400, one batch: the queue is empty after it

        Gateway.await(() -> writer.depth() == 0, "the last batch and its counters");
        assertEquals(1_400, writer.written());
        assertEquals(1, Rows.number("SELECT success_count FROM accounts WHERE id = 2"),
                "the queue emptied: the counters followed at once");
        writer.close();
        assertEquals(1_400, Rows.number("SELECT COUNT(*) FROM request_events"));
    }

    /**
     * N-10: whether the counters follow a batch is decided once the batch is written, by whether events came
     * meanwhile, not when the writer took it (taking a batch empties the queue, so under load the counters went
     * out after every batch: an UPDATE per account served, ~190 per batch with a 200-account pool). The batch's
     * write is held on the key's row lock while more events arrive.
     */
    @Test
    void eventsArrivingWhileABatchIsWrittenKeepItsCountersForTheFlushAfterThem() throws Exception {
        SynchronousQueue<Integer> gathered = new SynchronousQueue<>();
        SynchronousQueue<Boolean> proceed = new SynchronousQueue<>();
        AtomicInteger gathers = new AtomicInteger();
        AsyncEventWriter writer = new AsyncEventWriter(TestDatabase.database(), 5_000, journal, null, 64 << 20,
                () -> { }, () -> {
                    gathered.put(gathers.incrementAndGet());
                    proceed.take();
                }, () -> 0L); // the flush interval never passes: only an empty queue lets the counters go
        writer.touchAccount(1, true, T0, "gpt-x");
        writer.emit(numbered(0));
        assertEquals(1, gathered.take());
        try (Connection lock = TestDatabase.database().dataSource().getConnection()) {
            lock.setAutoCommit(false);
            try (Statement statement = lock.createStatement()) {
                statement.executeQuery("SELECT spent_micros FROM detour_keys WHERE id = 7 FOR UPDATE").close();
            }
            proceed.put(true); // the writer takes event 0 alone (the queue is empty now) and waits on the key's row
            Gateway.await(() -> Rows.number("SELECT COUNT(*) FROM information_schema.PROCESSLIST " // its own user's
                    + "WHERE INFO LIKE 'UPDATE detour_keys SET spent_micros%'") == 1,
                    "the batch's write waiting on the key's row");
            writer.touchAccount(2, true, T0.plusSeconds(1), null);
            for (int i = 1; i <= 3; i++) {
                writer.emit(numbered(i));
            }
            lock.rollback();
        }

        assertEquals(2, gathered.take(), "the first batch is written and the writer gathers the next");
        assertEquals(1, Rows.number("SELECT COUNT(*) FROM request_events"));
        assertEquals(0, Rows.number("SELECT success_count FROM accounts WHERE id = 1"),
                "events came while the batch was written: its counters wait for the flush after them");
        assertEquals(0, writer.written());
        assertEquals(4, writer.depth());
        proceed.put(true); // events 1-3, and nothing after them: the counters follow at once

        Gateway.await(() -> writer.depth() == 0, "the second batch and the counters");
        assertEquals(4, writer.written());
        assertEquals("1 1", Rows.column("SELECT CONCAT((SELECT success_count FROM accounts WHERE id = 1), ' ', "
                + "(SELECT success_count FROM accounts WHERE id = 2)) AS t", "t"));
        writer.close();
    }

    /**
     * N-10: events read back from the journal after a spill keep the account counters for the interval's flush (or
     * the writer's idle beat), as a memory batch with more events behind it does. While spilled the memory queue is
     * empty after every batch, and the counters went out after each ~1,000 events read back: with a 200-account pool
     * ~380 row statements per batch, on the writer that had fallen behind. Here a spill's second pass reads back
     * 2,000 events (two batches) after an account was touched; the counters wait until the spill has ended and the
     * writer idles.
     */
    @Test
    void eventsReadBackAfterASpillKeepTheCountersForTheIntervalsFlush() throws Exception {
        CountDownLatch gathering = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger passes = new AtomicInteger();
        AtomicLong countAfterSecondPass = new AtomicLong(-1);
        AtomicInteger next = new AtomicInteger(2_501);
        List<AsyncEventWriter> self = new ArrayList<>(1);
        AsyncEventWriter writer = new AsyncEventWriter(TestDatabase.database(), 5, journal, null, 64 << 20, () -> {
            AsyncEventWriter w = self.get(0);
            if (passes.incrementAndGet() == 1) { // still spilled: these go to the journal only, for the second pass
                w.touchAccount(2, true, T0.plusSeconds(1), null);
                for (int i = 0; i < 2_000; i++) {
                    w.emit(numbered(next.getAndIncrement()));
                }
            } else if (passes.get() == 2) {
                countAfterSecondPass.set(Rows.number("SELECT success_count FROM accounts WHERE id = 2"));
            }
        }, () -> {
            gathering.countDown();
            release.await();
        }, () -> 0L); // the flush interval never passes while the writer runs
        self.add(writer);
        writer.touchAccount(1, true, T0, "gpt-x");
        writer.emit(numbered(0));
        assertTrue(gathering.await(30, TimeUnit.SECONDS), "the writer holds event 0 and waits for more");
        for (int i = 1; i < 2_501; i++) { // the queue takes 5 of these, the rest spill to the journal
            writer.emit(numbered(i));
        }
        assertTrue(writer.spilled());
        release.countDown();

        Gateway.await(() -> writer.spillsEnded() == 1 && writer.written() == 4_501,
                "the spill written and then, with the writer idle, the counters");
        assertEquals(2, passes.get(), "the first pass, then the 2,000 events it left in the journal");
        assertEquals(0, countAfterSecondPass.get(),
                "2,000 events read back in two batches: the counters did not follow them");
        assertEquals("1 1", Rows.column("SELECT CONCAT((SELECT success_count FROM accounts WHERE id = 1), ' ', "
                + "(SELECT success_count FROM accounts WHERE id = 2)) AS t", "t"));
        assertEquals(4_501, Rows.number("SELECT COUNT(*) FROM request_events"));
        writer.close();
    }

    /**
     * D-2/D-5: what a killed run left in its journal slot (req00 finished; req01 started and never finished;
     * req02 finished and already committed before the kill, its spend with it) is written at the next start:
     * req00 once, req01 as an interrupted failure, req02 not a second time and its spend not added again.
     */
    @Test
    void aStartAfterACrashWritesTheJournalOnceAndLogsUnfinishedRequestsAsInterrupted() throws Exception {
        EventJournal killed = EventJournal.open(journal, 1 << 20);
        killed.append(JournalEntry.Kind.STARTED, interruptedForm(event(0)));
        killed.append(JournalEntry.Kind.STARTED, interruptedForm(event(1)));
        killed.append(JournalEntry.Kind.FINISHED, event(0));
        killed.append(JournalEntry.Kind.STARTED, interruptedForm(event(2)));
        killed.append(JournalEntry.Kind.FINISHED, event(2));
        killed.close(false); // the lock goes with the process; the segment stays
        EventBatches alreadyCommitted = new EventBatches(TestDatabase.database().dataSource());
        alreadyCommitted.writeEvents(List.of(event(2)));

        AsyncEventWriter restarted = new AsyncEventWriter(TestDatabase.database(), 100, journal);
        restarted.close();

        assertEquals(List.of("req02 success 200 -", "req00 success 200 -", "req01 failure 0 detour.interrupted"),
                Rows.strings("SELECT CONCAT(SUBSTRING(request_id, 1, 5), ' ', outcome, ' ', status, ' ', "
                        + "COALESCE(error_code, '-')) FROM request_events ORDER BY id"));
        assertEquals(100 + 102, Rows.number("SELECT spent_micros FROM detour_keys WHERE id = 7"));
        assertEquals(1, restarted.interrupted());
        assertNull(EventJournal.open(journal, 1 << 20).previousRunEnd(), "a clean stop leaves nothing to replay");
    }

    /**
     * D-5 across segment rotations: a request that stays open while 40 others come and go (their segments
     * written and deleted, the open request's own first segment among them) is still in the journal when
     * the process dies, and logged as interrupted at the next start.
     */
    @Test
    void aRequestOpenWhileItsSegmentIsWrittenAndDeletedIsStillLoggedAsInterruptedAfterACrash() throws Exception {
        AsyncEventWriter killed = new AsyncEventWriter(TestDatabase.database(), 100, journal, 2_000);
        killed.started(interruptedForm(event(0)));
        AsyncEventWriter restarted = restartedAfterRotationsAndACrash(killed, 1);

        assertEquals(41, Rows.number("SELECT COUNT(*) FROM request_events"));
        assertEquals("failure detour.interrupted", Rows.column("SELECT CONCAT(outcome, ' ', error_code) AS t"
                + " FROM request_events WHERE request_id LIKE 'req00%'", "t"));
        assertEquals(1, restarted.interrupted());
    }

    /**
     * D-5 across rotations with an open request whose start record cannot be journaled (over the record limit;
     * its id sorts it first among the open ones): the requests open beside it are still carried into every new
     * segment, as the bytes they were journaled with, and logged as interrupted after a crash.
     */
    @Test
    void anOpenRequestThatCannotBeJournaledKeepsNoOtherOutOfTheNextSegment() throws Exception {
        AsyncEventWriter killed = new AsyncEventWriter(TestDatabase.database(), 100, journal, 4_000);
        List<RejectionRecord> overLimit = new ArrayList<>(); // 80 reasons of 16,000 chars: 1.3 MB, over the 1 MiB limit
        for (int i = 0; i < 80; i++) {
            overLimit.add(new RejectionRecord(i, "r".repeat(16_000)));
        }
        killed.started(new RequestEvent("huge0000000000000000000009", 7L, "chat_completions", "gpt-x", null, true,
                null, null, RequestEvent.Outcome.FAILURE, 0, RequestEvent.INTERRUPTED, null, List.of(), overLimit,
                TokenUsage.NONE, 0, null, 0, "127.0.0.1", T0, null));
        for (int i = 0; i < 3; i++) {
            killed.started(interruptedForm(event(i)));
        }
        AsyncEventWriter restarted = restartedAfterRotationsAndACrash(killed, 10);

        assertEquals(3, restarted.interrupted());
        assertEquals(List.of("req00", "req01", "req02"), Rows.strings("SELECT SUBSTRING(request_id, 1, 5) FROM"
                + " request_events WHERE error_code = 'detour.interrupted' ORDER BY request_id"));
    }

    /**
     * 40 requests from {@code first} on start and finish while the ones already open stay open, until every
     * finished event is written and the first segment (holding the open ones' start records) is deleted; then
     * the writer dies as a killed process would and a new one starts on its journal, and is closed.
     */
    private AsyncEventWriter restartedAfterRotationsAndACrash(AsyncEventWriter killed, int first) throws Exception {
        for (int i = first; i < first + 40; i++) {
            killed.started(interruptedForm(event(i)));
            killed.emit(event(i));
        }
        Gateway.await(() -> killed.written() == 40, "40 finished events written");
        Path slot = killed.journalDir();
        Gateway.await(() -> !Files.exists(slot.resolve("events-000000000001.journal")),
                "the first segment, holding the open requests' started records, deleted once its events were written");
        killed.halt();
        AsyncEventWriter restarted = new AsyncEventWriter(TestDatabase.database(), 100, journal);
        restarted.close();
        return restarted;
    }

    /** What the Forwarder journals when a request starts (D-5). */
    private static RequestEvent interruptedForm(RequestEvent e) {
        return new RequestEvent(e.requestId(), e.keyId(), e.endpoint(), e.requestedModel(), null, e.stream(), null,
                null, RequestEvent.Outcome.FAILURE, 0, RequestEvent.INTERRUPTED, null, List.of(), List.of(),
                TokenUsage.NONE, 0, null, 0, e.clientIp(), e.createdAt(), null);
    }

    private static RequestEvent event(int i) {
        return event(i, String.format("req%02d%021d", i, 0));
    }

    /** Event {@code i} of more than 100: a request id of its own (26 characters, as the column holds). */
    private static RequestEvent numbered(int i) {
        return event(i, String.format("load%06d%016d", i, 0));
    }

    private static RequestEvent event(int i, String requestId) {
        return new RequestEvent(requestId, 7L, "chat_completions", "gpt-x", "gpt-x", i % 2 == 0,
                1L, 1L, RequestEvent.Outcome.SUCCESS, 200, null, null,
                List.of(new AttemptRecord(1, 200, null, null, i, "final")), List.of(), new TokenUsage(i, 2, 0, 0, 0, 0),
                100 + i, i % 2 == 0 ? 3 : null, 10, "127.0.0.1", T0.plusMillis(i), "chat_completions");
    }
}
