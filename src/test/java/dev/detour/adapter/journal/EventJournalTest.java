package dev.detour.adapter.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.detour.adapter.journal.EventJournal.Position;
import dev.detour.adapter.journal.EventJournal.Read;
import dev.detour.adapter.journal.JournalEntry.Kind;
import dev.detour.core.usage.TokenUsage;
import dev.detour.gateway.port.RequestEvent;
import dev.detour.gateway.port.RequestEvent.AttemptRecord;
import dev.detour.gateway.port.RequestEvent.RejectionRecord;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** D-2: the journal's own promises, on real files in a temporary folder (no database, no HTTP). */
class EventJournalTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00.123456789Z");

    @TempDir
    Path root;

    @TempDir
    Path memory;

    @Test
    void recordsReadBackInAppendOrderWithTheirKindAndEveryField() throws IOException {
        EventJournal journal = EventJournal.open(root, 1 << 20);
        List<JournalEntry> written = List.of(new JournalEntry(Kind.STARTED, event(1, null)),
                new JournalEntry(Kind.FINISHED, event(1, "stream.truncated")),
                new JournalEntry(Kind.FINISHED, bare(2)));
        for (JournalEntry e : written) {
            journal.append(e.kind(), e.event());
        }

        assertEquals(written, entries(journal.read(journal.runStart(), journal.end(), 100)));
    }

    @Test
    void anInterruptedThreadStillAppendsKeepsItsInterruptAndTheJournalStaysOpenForEveryoneElse()
            throws IOException {
        EventJournal journal = EventJournal.open(root, 1 << 20);
        Thread.currentThread().interrupt(); // as an executor's shutdownNow() leaves a probe thread
        try {
            journal.append(Kind.FINISHED, bare(1));
        } finally {
            assertTrue(Thread.interrupted(), "the caller still sees its interrupt");
        }
        journal.append(Kind.FINISHED, bare(2));

        assertEquals(List.of("r01", "r02"), ids(journal.read(journal.runStart(), journal.end(), 100)));
    }

    @Test
    void aRestartInTheSameSlotFindsWhatThePreviousRunLeftAndWritesAfterIt() throws IOException {
        EventJournal first = EventJournal.open(root, 1 << 20);
        first.append(Kind.FINISHED, bare(1));
        first.close(false);

        EventJournal second = EventJournal.open(root, 1 << 20);
        second.append(Kind.FINISHED, bare(2));

        assertEquals(first.dir(), second.dir());
        assertEquals(List.of("r01"), ids(second.read(new Position(1, 0), second.previousRunEnd(), 100)));
        assertEquals(List.of("r02"), ids(second.read(second.runStart(), second.end(), 100)));
    }

    @Test
    void aCleanCloseLeavesNothingToReplay() throws IOException {
        EventJournal first = EventJournal.open(root, 1 << 20);
        first.append(Kind.FINISHED, bare(1));
        first.close(true);

        assertNull(EventJournal.open(root, 1 << 20).previousRunEnd());
    }

    @Test
    void aSecondLiveInstanceTakesItsOwnSlot() {
        EventJournal first = EventJournal.open(root, 1 << 20);
        EventJournal second = EventJournal.open(root, 1 << 20);

        assertNotEquals(first.dir(), second.dir());
    }

    @Test
    void aRecordCutShortByACrashIsSkippedAndEverythingBeforeItKept() throws IOException {
        EventJournal crashed = EventJournal.open(root, 1 << 20);
        crashed.append(Kind.FINISHED, bare(1));
        crashed.append(Kind.FINISHED, bare(2));
        Position whole = crashed.end();
        crashed.append(Kind.FINISHED, bare(3));
        crashed.close(false);
        Path segment = crashed.dir().resolve("events-000000000001.journal");
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            file.setLength(whole.offset() + 11); // the third record's header and a few bytes of it
        }

        EventJournal restarted = EventJournal.open(root, 1 << 20);

        assertEquals(List.of("r01", "r02"), ids(restarted.read(new Position(1, 0), restarted.previousRunEnd(), 100)));
    }

    @Test
    void aRecordWithDamagedBytesFailsItsChecksumAndEndsTheSegment() throws IOException {
        EventJournal crashed = EventJournal.open(root, 1 << 20);
        crashed.append(Kind.FINISHED, bare(1));
        Position first = crashed.end();
        crashed.append(Kind.FINISHED, bare(2));
        crashed.close(false);
        Path segment = crashed.dir().resolve("events-000000000001.journal");
        byte[] bytes = Files.readAllBytes(segment);
        bytes[(int) first.offset() + 12] ^= 0x5a; // inside the second record's payload
        Files.write(segment, bytes);

        EventJournal restarted = EventJournal.open(root, 1 << 20);

        assertEquals(List.of("r01"), ids(restarted.read(new Position(1, 0), restarted.previousRunEnd(), 100)));
    }

    @Test
    void readsCrossRotatedSegmentsInOrderAndResumeAfterTheLastRecordRead() throws IOException {
        EventJournal journal = EventJournal.open(root, 300);
        for (int i = 1; i <= 9; i++) {
            journal.append(Kind.FINISHED, bare(i));
            if (journal.full()) {
                journal.rotate();
            }
        }
        assertEquals(true, journal.segments().size() > 2);

        List<String> ids = new ArrayList<>();
        Position from = journal.runStart();
        while (true) {
            List<Read> reads = journal.read(from, journal.end(), 2);
            ids.addAll(ids(reads));
            if (reads.size() < 2) {
                break;
            }
            from = reads.get(reads.size() - 1).after();
        }
        assertEquals(List.of("r01", "r02", "r03", "r04", "r05", "r06", "r07", "r08", "r09"), ids);
    }

    @Test
    void aSegmentACrashLeftUncutEndsAtItsLastRecordWithoutReadingItsUnusedTailAsDamage() throws IOException {
        EventJournal running = EventJournal.open(root, 1 << 20);
        running.append(Kind.FINISHED, bare(1));
        running.append(Kind.FINISHED, bare(2));
        Path segment = running.dir().resolve("events-000000000001.journal");
        long mapped = Files.size(segment); // not synced, not closed: as a killed process leaves it

        List<Read> reads = running.read(running.runStart(), new Position(1, mapped), 100);

        assertTrue(mapped > running.end().offset(), "the segment is mapped beyond its records");
        assertEquals(List.of("r01", "r02"), ids(reads));
        assertEquals(running.end(), reads.get(1).after());
    }

    @Test
    void aRotatedSegmentIsCutToItsRecordsOnceSyncedAndTheNextOneTakesTheAppends() throws IOException {
        EventJournal journal = EventJournal.open(root, 1 << 20);
        journal.append(Kind.FINISHED, bare(1));
        Position firstEnd = journal.end();
        journal.rotate();
        journal.append(Kind.FINISHED, bare(2));
        journal.sync();

        assertEquals(firstEnd.offset(), Files.size(journal.dir().resolve("events-000000000001.journal")));
        assertEquals(List.of("r01", "r02"), ids(journal.read(journal.runStart(), journal.end(), 100)));
        journal.close(false);
        assertEquals(journal.end().offset(), Files.size(journal.dir().resolve("events-000000000002.journal")));
    }

    @Test
    void aRecordLargerThanTheRoomLeftStartsTheNextSegment() throws IOException {
        EventJournal journal = EventJournal.open(root, 1);
        byte[] record = EventJournal.record(Kind.FINISHED, bare(1));
        int fits = (1 + 8 + (1 << 20)) / record.length; // the mapping: the segment size plus the largest record
        for (int i = 0; i < fits + 1; i++) {
            journal.append(record);
        }

        assertEquals(List.of(1L, 2L), journal.segments());
        assertEquals(fits + 1, journal.read(journal.runStart(), journal.end(), fits + 10).size());
    }

    @Test
    void deletingBeforeASegmentKeepsThatSegmentAndTheOneBeingWritten() throws IOException {
        EventJournal journal = EventJournal.open(root, 1);
        for (int i = 1; i <= 4; i++) {
            journal.append(Kind.FINISHED, bare(i));
            journal.rotate();
        }
        journal.deleteBefore(3, 0);

        assertEquals(List.of(3L, 4L, 5L), journal.segments());
    }

    @Test
    void aNewSegmentHasItsDiskBlocksBeforeAnythingIsWrittenThroughItsMapping() throws IOException {
        EventJournal journal = EventJournal.open(root, 1 << 20);
        Path segment = journal.dir().resolve("events-000000000001.journal");

        long mapped = (1 << 20) + 8 + (1 << 20); // the segment and room for the largest record
        assertEquals(mapped, Files.size(segment));
        assertTrue(allocatedBytes(segment) >= mapped, "written with zeros, not sparse: no page can lack its block");
        assertEquals(List.of(), journal.read(journal.runStart(), new Position(1, mapped), 10), "zeros end the records");
    }

    @Test
    void aSyncMakesThePagesTheNextAppendsWriteReadyWithoutChangingAByte() throws IOException {
        EventJournal journal = EventJournal.open(root, 8 << 20);
        byte[] record = EventJournal.record(Kind.FINISHED, bare(1));
        int appended = appendBytes(journal, record, 200 * 1024);
        long end = journal.end().offset();
        journal.sync();
        assertEquals(end + end + end / 2, journal.readyUpTo(), "1.5 times what this interval appended");

        // written into the pages made ready: the thread faults far less than once a page (measured: 0-2 for
        // 32 pages, 15-33 without); the kernel's own writeback may clean a page again, so this is not asserted
        long before = minorFaultsOfThisThread();
        appended += appendBytes(journal, record, 32 * 4096);
        System.out.printf("EventJournalTest: %d minor faults appending 32 pages made ready%n",
                minorFaultsOfThisThread() - before);
        long interval = journal.end().offset() - end;
        end = journal.end().offset();
        journal.sync();
        assertEquals(end + interval + interval / 2, journal.readyUpTo(), "follows the last interval");
        journal.append(record);
        appended++;
        journal.sync();
        assertEquals(end + record.length + 64 * 1024, journal.readyUpTo(), "and at least 64 KiB ahead");

        assertEquals(appended, journal.read(journal.runStart(), journal.end(), 100_000).size(), "every record");
        Path segment = journal.dir().resolve("events-000000000001.journal");
        try (FileChannel file = FileChannel.open(segment, StandardOpenOption.READ)) {
            MappedByteBuffer view = file.map(FileChannel.MapMode.READ_ONLY, 0, Files.size(segment));
            for (int at = (int) journal.end().offset(); at < view.capacity(); at++) {
                assertEquals(0, view.get(at), "byte " + at + " after the records");
            }
        }
    }

    @Test
    void theReadyPagesNeverReachPastTheMapping() throws IOException {
        EventJournal journal = EventJournal.open(root, 64 * 1024);
        byte[] record = EventJournal.record(Kind.FINISHED, bare(1));
        appendBytes(journal, record, 1 << 20); // the segment and most of its room for one more record
        journal.sync();
        assertEquals(64 * 1024 + 8 + (1 << 20), journal.readyUpTo(), "the mapping's end");
    }

    /** Appends {@code record} until at least {@code bytes} more are written; returns how many records. */
    private static int appendBytes(EventJournal journal, byte[] record, int bytes) throws IOException {
        int count = 0;
        for (int written = 0; written < bytes; written += record.length) {
            journal.append(record);
            count++;
        }
        return count;
    }

    @Test
    void theSyncPreparesTheNextSegmentOnceTheCurrentOneIsHalfFullAndTheRotationTakesIt() throws IOException {
        EventJournal journal = EventJournal.open(root, 64 * 1024);
        byte[] record = EventJournal.record(Kind.FINISHED, bare(1));
        journal.sync();
        assertEquals(List.of(1L), journal.segments(), "nothing prepared before half the segment is written");
        while (journal.end().offset() < 32 * 1024) {
            journal.append(record);
        }
        journal.sync();
        assertEquals(List.of(1L, 2L), journal.segments(), "the next one made ready by the sync");
        Path second = journal.dir().resolve("events-000000000002.journal");
        Object created = Files.getAttribute(second, "unix:ino");

        journal.rotate();
        journal.append(record);

        assertEquals(new Position(2, record.length), journal.end());
        assertEquals(created, Files.getAttribute(second, "unix:ino"), "the prepared file, not a new one");
        assertEquals(List.of(1L, 2L), journal.segments());
    }

    @Test
    void aPreparedSegmentNeverWrittenIsDeletedAtCloseAndNothingIsReplayedFromIt() throws IOException {
        EventJournal journal = EventJournal.open(root, 64 * 1024);
        byte[] record = EventJournal.record(Kind.FINISHED, bare(1));
        while (journal.end().offset() < 32 * 1024) {
            journal.append(record);
        }
        journal.sync();
        assertEquals(List.of(1L, 2L), journal.segments());
        long appended = journal.read(journal.runStart(), journal.end(), 10_000).size();

        journal.close(false);
        EventJournal restarted = EventJournal.open(root, 64 * 1024);

        assertEquals(new Position(1, appended * record.length), restarted.previousRunEnd());
        assertEquals(appended, restarted.read(new Position(1, 0), restarted.previousRunEnd(), 10_000).size());
    }

    /**
     * A full disk, for real: a 2 MiB tmpfs (mounting needs root and a kernel that lets this container mount; the
     * test says so and skips otherwise). A segment that cannot have its blocks is never mapped, so no write meets
     * an unbacked page (a SIGBUS: an InternalError thrown at a random later point, or a dead VM in the interpreter).
     */
    @Test
    void aFullDiskRefusesAppendsWithAnIOExceptionAndKeepsWhatItHasEvenFromTheStart() throws Exception {
        Path disk = Files.createDirectories(root.resolve("tiny"));
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", disk.toString())
                .redirectErrorStream(true).start();
        String said = new String(mount.getInputStream().readAllBytes()).trim();
        org.junit.jupiter.api.Assumptions.assumeTrue(mount.waitFor() == 0,
                "SKIPPED LOUDLY: no tmpfs could be mounted for a full disk (needs root): " + said);
        try {
            EventJournal journal = EventJournal.open(disk, 256 * 1024); // a segment maps 1.25 MiB: one fits, not two
            byte[] record = EventJournal.record(Kind.FINISHED, bare(1));
            int appended = 0;
            IOException refused = null;
            while (refused == null && appended < 100_000) {
                try {
                    journal.append(record);
                    appended++;
                } catch (IOException e) {
                    refused = e;
                }
                journal.sync(); // prepares the next segment: no room for it
                if (journal.full()) {
                    assertThrows(IOException.class, journal::rotate, "no room for the next segment");
                }
            }
            assertNotNull(refused, "the disk filled");
            assertTrue(appended * record.length >= 256 * 1024, "the first segment took its records: " + appended);
            assertThrows(IOException.class, () -> journal.append(record), "still full: refused again, cleanly");
            assertEquals(appended, journal.read(journal.runStart(), journal.end(), 100_000).size());
            journal.close(false);

            Path big = Files.createDirectories(disk.resolve("big"));
            Files.write(big.resolve("ballast"), new byte[(int) Files.getFileStore(disk).getUsableSpace()]);
            EventJournal full = EventJournal.open(disk, 256 * 1024); // starts on a full disk, appends nothing
            assertThrows(IOException.class, () -> full.append(record));
            assertEquals(appended, full.read(new Position(1, 0), full.previousRunEnd(), 100_000).size(),
                    "the earlier run's records still read back");
            full.close(false);
        } finally {
            new ProcessBuilder("umount", "-l", disk.toString()).start().waitFor(); // its mappings go with the GC
        }
    }

    @Test
    void appendsRacingTheSyncThatPreparesTheirPagesKeepEveryByte() throws Exception {
        EventJournal journal = EventJournal.open(root, 1 << 20);
        int count = 20_000;
        Thread syncing = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                journal.sync();
            }
        });
        syncing.start();
        try {
            for (int i = 1; i <= count; i++) {
                journal.append(Kind.FINISHED, bare(i));
                if (journal.full()) {
                    journal.rotate();
                }
            }
        } finally {
            syncing.interrupt();
            syncing.join();
        }

        List<Read> reads = journal.read(journal.runStart(), journal.end(), count + 1);
        assertEquals(count, reads.size(), "no record torn or zeroed by a page prepared under it");
        for (int i = 0; i < count; i++) {
            assertEquals(String.format("r%02d", i + 1), reads.get(i).entry().event().requestId());
        }
    }

    // In memory (D-2, N-8): segments mapped in a memory folder (tmpfs in production; here any folder, which the
    // journal does not check) and copied into the data dir at each sync.

    @Test
    void inMemoryTheDataDirGetsTheAppendedRecordsAtEachSyncAndIsNeverMapped() throws IOException {
        EventJournal journal = EventJournal.open(root, memoryRoot(), 1 << 20);
        journal.append(Kind.FINISHED, bare(1));
        journal.append(Kind.FINISHED, bare(2));
        Path kept = journal.dir().resolve("events-000000000001.journal");

        assertEquals(0, Files.size(kept), "nothing copied before the sync");
        assertTrue(Files.size(journal.memoryDir().resolve("events-000000000001.journal")) > 1 << 20,
                "the mapped file is the memory one");
        journal.sync();
        assertEquals(journal.end().offset(), Files.size(kept), "the sync copied every appended byte, no zero tail");
        journal.append(Kind.FINISHED, bare(3));
        journal.sync();
        assertEquals(journal.end().offset(), Files.size(kept));
        assertEquals(List.of("r01", "r02", "r03"), ids(readFile(kept)));
    }

    @Test
    void inMemoryAKilledRunLeavesEveryAppendedRecordEvenThoseNoSyncCopied() throws IOException {
        EventJournal killed = EventJournal.open(root, memoryRoot(), 1 << 20);
        killed.append(Kind.FINISHED, bare(1));
        killed.sync();
        killed.append(Kind.FINISHED, bare(2)); // in the memory copy only
        killed.append(Kind.STARTED, event(3, null));
        Position end = killed.end();
        killed.abandon();

        EventJournal restarted = EventJournal.open(root, memoryRoot(), 1 << 20);

        assertEquals(end, restarted.previousRunEnd());
        assertEquals(List.of("r01", "r02", "r03"),
                ids(restarted.read(new Position(1, 0), restarted.previousRunEnd(), 100)));
        assertEquals(List.of("events-000000000002.journal"), names(restarted.memoryDir()),
                "the killed run's memory files copied and gone; only this run's segment");
    }

    @Test
    void inMemoryAfterARebootTheDataDirHoldsWhatTheLastSyncCopied() throws IOException {
        EventJournal killed = EventJournal.open(root, memoryRoot(), 1 << 20);
        killed.append(Kind.FINISHED, bare(1));
        killed.append(Kind.FINISHED, bare(2));
        killed.sync();
        killed.append(Kind.FINISHED, bare(3));
        killed.abandon();
        for (Path f : Files.list(killed.memoryDir()).toList()) {
            Files.delete(f); // a reboot empties the memory file system
        }

        EventJournal restarted = EventJournal.open(root, memoryRoot(), 1 << 20);

        assertEquals(List.of("r01", "r02"), ids(restarted.read(new Position(1, 0), restarted.previousRunEnd(), 100)));
    }

    @Test
    void inMemoryAMemoryCopyCutShortByTheKillGivesItsWholeRecordsOnly() throws IOException {
        EventJournal killed = EventJournal.open(root, memoryRoot(), 1 << 20);
        killed.append(Kind.FINISHED, bare(1));
        Position whole = killed.end();
        killed.append(Kind.FINISHED, bare(2));
        killed.abandon();
        Path copy = killed.memoryDir().resolve("events-000000000001.journal");
        try (FileChannel file = FileChannel.open(copy, StandardOpenOption.WRITE)) {
            file.write(java.nio.ByteBuffer.allocate(20), whole.offset() + 14); // the second record's tail: zeros
        }

        EventJournal restarted = EventJournal.open(root, memoryRoot(), 1 << 20);

        assertEquals(whole, restarted.previousRunEnd(), "the data dir holds the whole record only");
        assertEquals(List.of("r01"), ids(restarted.read(new Position(1, 0), restarted.previousRunEnd(), 100)));
    }

    @Test
    void inMemoryReadsGetRecordsNoSyncCopiedYetAcrossRotatedSegments() throws IOException {
        EventJournal journal = EventJournal.open(root, memoryRoot(), 300);
        for (int i = 1; i <= 9; i++) {
            journal.append(Kind.FINISHED, bare(i));
            if (journal.full()) {
                journal.rotate();
            }
        }
        assertTrue(journal.segments().size() > 2);

        assertEquals(List.of("r01", "r02", "r03", "r04", "r05", "r06", "r07", "r08", "r09"),
                ids(journal.read(journal.runStart(), journal.end(), 100)), "no sync ran: the read copied them");
        journal.append(Kind.FINISHED, bare(10));
        assertEquals(List.of("r10"), ids(journal.read(new Position(journal.end().segment(), 0), journal.end(), 100)));
    }

    @Test
    void inMemoryAFinishedSegmentIsCopiedWholeAndItsMemoryFileServesALaterSegment() throws IOException {
        EventJournal journal = EventJournal.open(root, memoryRoot(), 64 * 1024);
        byte[] record = EventJournal.record(Kind.FINISHED, bare(1));
        appendBytes(journal, record, 64 * 1024);
        long firstLength = journal.end().offset();
        Object firstInode = Files.getAttribute(journal.memoryDir().resolve("events-000000000001.journal"), "unix:ino");
        journal.rotate();
        journal.sync();

        assertEquals(firstLength, Files.size(journal.dir().resolve("events-000000000001.journal")));
        assertEquals(List.of("events-000000000002.journal", "spare-1"), names(journal.memoryDir()));
        appendBytes(journal, record, 64 * 1024);
        journal.rotate(); // segment 3 takes the spare, zeroed where segment 1 had written
        assertEquals(firstInode, Files.getAttribute(journal.memoryDir().resolve("events-000000000003.journal"),
                "unix:ino"), "the spare mapping, not a new file");
        journal.append(Kind.FINISHED, bare(2));
        journal.sync();

        List<Read> third = journal.read(new Position(3, 0), journal.end(), 100);
        assertEquals(List.of("r02"), ids(third));
        byte[] reused = Files.readAllBytes(journal.memoryDir().resolve("events-000000000003.journal"));
        for (int at = (int) journal.end().offset(); at < firstLength; at++) {
            assertEquals(0, reused[at], "byte " + at + ": nothing of segment 1 left for a crashed start to read");
        }
        journal.close(false);
        assertTrue(Files.notExists(journal.memoryDir()), "a close copies everything and removes the memory files");
        EventJournal restarted = EventJournal.open(root, memoryRoot(), 64 * 1024);
        assertEquals(new Position(3, record.length), restarted.previousRunEnd());
    }

    @Test
    void inMemoryAppendsRacingSyncsReadsAndReusedSegmentsKeepEveryRecordInOrder() throws Exception {
        EventJournal journal = EventJournal.open(root, memoryRoot(), 16 * 1024);
        int count = 20_000;
        Thread syncing = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                journal.sync();
            }
        });
        List<String> seen = new ArrayList<>();
        syncing.start();
        try {
            Position readFrom = journal.runStart();
            for (int i = 1; i <= count; i++) {
                journal.append(Kind.FINISHED, bare(i));
                if (journal.full()) {
                    journal.rotate();
                }
                if (i % 97 == 0) { // a reader that follows the appends, as a spill replay does
                    List<Read> reads = journal.read(readFrom, journal.end(), 1_000);
                    seen.addAll(ids(reads));
                    readFrom = reads.isEmpty() ? readFrom : reads.get(reads.size() - 1).after();
                }
            }
            seen.addAll(ids(journal.read(readFrom, journal.end(), count)));
        } finally {
            syncing.interrupt();
            syncing.join();
        }

        assertEquals(count, seen.size(), "no record torn, zeroed or missed");
        for (int i = 0; i < count; i++) {
            assertEquals(String.format("r%02d", i + 1), seen.get(i));
        }
        journal.close(false);
        EventJournal restarted = EventJournal.open(root, memoryRoot(), 16 * 1024);
        assertEquals(count, restarted.read(new Position(1, 0), restarted.previousRunEnd(), count + 1).size(),
                "and the data dir holds every one of them");
    }

    /** The memory folder of one data dir, as {@link MemoryFolder} names it under /dev/shm (here: not tmpfs). */
    private Path memoryRoot() {
        return memory.resolve("detour-journal-test");
    }

    /** Every record of one segment file, read as a start reads it. */
    private List<Read> readFile(Path segment) throws IOException {
        EventJournal reader = EventJournal.open(root.resolve("reader"), 1 << 20);
        Path copy = Files.copy(segment, reader.dir().resolve("events-000000000000.journal"));
        return reader.read(new Position(0, 0), new Position(0, Files.size(copy)), 1_000);
    }

    private static List<String> names(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    /** This thread's minor page faults so far (Linux: field 10 of /proc/thread-self/stat). */
    private static long minorFaultsOfThisThread() throws IOException {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[7]);
    }

    /** The file system's blocks held by a file (stat's %b, in 512-byte units): which pages were ever written. */
    private static long allocatedBytes(Path file) throws IOException {
        Process stat = new ProcessBuilder("stat", "-c", "%b", file.toString()).redirectErrorStream(true).start();
        String out = new String(stat.getInputStream().readAllBytes()).trim();
        try {
            assertEquals(0, stat.waitFor(), out);
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
        return Long.parseLong(out) * 512;
    }

    private static List<JournalEntry> entries(List<Read> reads) {
        return reads.stream().map(Read::entry).toList();
    }

    private static List<String> ids(List<Read> reads) {
        return reads.stream().map(r -> r.entry().event().requestId()).toList();
    }

    /** Every field set, nulls where the schema allows them. */
    private static RequestEvent event(int i, String errorCode) {
        return new RequestEvent(String.format("r%02d", i), 7L, "messages", "claude-x", "claude-x@a", true, 3L, 1L,
                RequestEvent.Outcome.FAILURE, 200, errorCode, "switched_after_failure",
                List.of(new AttemptRecord(2, null, "transport", "account", 12, "switch"),
                        new AttemptRecord(3, 200, null, null, 40, "final")),
                List.of(new RejectionRecord(4, "rejected_cooling")), new TokenUsage(10, 20, 30, 40, 50, 60), 1234, 56,
                789, "10.0.0.1", T0, true, "chat_completions");
    }

    /** The fewest fields: no key, model, account or client address. */
    private static RequestEvent bare(int i) {
        return new RequestEvent(String.format("r%02d", i), null, "unknown", null, null, false, null, null,
                RequestEvent.Outcome.CLIENT_ERROR, 400, null, null, List.of(), List.of(), TokenUsage.NONE, 0, null, 0,
                null, T0.plusSeconds(i), null);
    }
}
