package dev.detour.adapter.journal;

import dev.detour.gateway.port.RequestEvent;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * D-2: the local append-only journal of request events, one folder per running instance (a "slot"
 * under {@code <data dir>/journal/}, held by an OS file lock, so two instances sharing a data dir never
 * share one; a restarted instance takes the lowest free slot and so finds what its crashed predecessor
 * left). Records are {@code [length][crc32][payload]} in numbered segment files; a record cut short by a
 * crash (or a page lost to power loss) fails its length or checksum and ends the read of that segment.
 *
 * <p>A segment is a file mapped into memory: an append is a copy into the page cache, with no system call
 * and no file-size change, so a killed process still leaves every appended record to the kernel, and a
 * request thread never waits on the file system's journal the way a {@code write} that grows a file does
 * (every request appends twice, and those waits, behind fsyncs, were the request path's longest lock
 * queue). The mapping is larger than the segment so any record fits; the unused tail reads as zeros,
 * which end a segment cleanly. A finished segment is synced and cut to its length by {@link #sync()}.
 *
 * <p>A copy into a mapped page still faults when the page is new, and again after every sync (the sync
 * write-protects what it wrote); the file system serves that fault (block reservation, the file's mtime) and
 * can make it wait behind its own journal commit, which the sync itself starts. Such a wait, under the
 * caller's lock, held every other request's append. So the sync thread does that work: it creates the next
 * segment while this one fills (a file created on rotation was a create and a map under the lock), every
 * segment is written with zeros before it is mapped (its blocks exist, so no page of it can fail to be backed),
 * and after each sync it faults in the pages the next interval will write (see {@link #prefault}).
 *
 * <p>Not thread-safe for writes: the caller ({@code AsyncEventWriter}) appends under its own lock.
 * {@link #sync()} may run on another thread; reads open their own file handles.
 */
public final class EventJournal implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EventJournal.class);
    private static final String PREFIX = "events-";
    private static final String SUFFIX = ".journal";
    private static final int HEADER = 8;
    private static final int MAX_RECORD = 1 << 20;
    private static final int MAX_SLOTS = 64;
    /** What {@link #nextPayload} returns where the records end: a mapped segment's zero tail, or the file's end. */
    private static final byte[] END = new byte[0];
    private static final int PAGE = 4096;
    /** Pages made writable ahead of the appends: the last interval's appends and half again, within these bounds. */
    private static final long AHEAD_MIN = 64 * 1024;
    private static final long AHEAD_MAX = 4L << 20;
    /** An atomic read-modify-write on a word of the mapping: a write access that changes no byte (see prefault). */
    private static final VarHandle WORD = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    /** Where a record ends (or starts): segment number and byte offset. */
    public record Position(long segment, long offset) implements Comparable<Position> {
        @Override
        public int compareTo(Position o) {
            int bySegment = Long.compare(segment, o.segment);
            return bySegment != 0 ? bySegment : Long.compare(offset, o.offset);
        }
    }

    /** One record read back and the position just after it. */
    public record Read(JournalEntry entry, Position after) {
    }

    private final Path dir;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final long maxSegmentBytes;
    private final Position previousRunEnd;
    /** The segment being written; replaced (under the caller's lock) at rotation, read by the sync thread. */
    private volatile Segment current;
    /** The segment after it, made ready by the sync thread once this one is half full; taken by {@link #rotate}. */
    private final AtomicReference<Prepared> next = new AtomicReference<>();
    /** Held to create a segment file, so a preparation and a rotation never race for the same number. */
    private final ReentrantLock creating = new ReentrantLock();
    /** Rotated segments still to be synced and cut to their length by the sync thread (or close). */
    private final Queue<FinishedSegment> finished = new ConcurrentLinkedQueue<>();
    /** Written under the caller's lock; volatile for the sync thread, which numbers the next segment after it. */
    private volatile long segment;
    /** Written under the caller's lock; volatile for the sync thread, which faults in the pages after it. */
    private volatile long size;
    /** Sync thread only: where the last prefault began (its segment and offset), to size the next one. */
    private Segment prefaulted;
    private long prefaultedFrom;
    /** Sync thread only: where the last prefault ended (the appends find pages writable up to there). */
    private volatile long prefaultedTo;
    private volatile boolean dirty;
    /** After a segment could not be made (no disk space), none is tried again before this (System.nanoTime). */
    private volatile long nextCreationNanos = System.nanoTime();

    private record FinishedSegment(Segment segment, long length) {
    }

    /** A segment made ready ahead of its rotation, and its number. */
    private record Prepared(long number, Segment segment) {
    }

    /**
     * One mapped segment file, written with zeros before it was mapped so each of its pages has its disk blocks:
     * a write through the mapping never faults for want of one (that fault is a SIGBUS, which the VM turns into
     * an InternalError thrown at some later point of the writing thread, or survives not at all).
     */
    private record Segment(FileChannel channel, MappedByteBuffer map) {
        /** Syncs what was appended and, for a finished segment, cuts the zero tail and closes the file. */
        void sync(long length, boolean close) throws IOException {
            map.force();
            if (close) {
                Uninterrupted.io(() -> channel.truncate(length));
                channel.close();
            }
        }
    }

    private EventJournal(Path dir, FileChannel lockChannel, FileLock lock, long maxSegmentBytes) throws IOException {
        this.dir = dir;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.maxSegmentBytes = maxSegmentBytes;
        List<Long> existing = segments();
        long last = existing.isEmpty() ? 0 : existing.get(existing.size() - 1);
        this.previousRunEnd = existing.isEmpty() ? null : new Position(last, Files.size(file(last)));
        try {
            openSegment(last + 1);
        } catch (IOException noRoom) {
            // a full disk must not stop the start: an empty segment, so the first append makes a real one (or fails)
            log.error("event journal {}: no room for a segment ({}); events wait in memory until there is", dir,
                    noRoom.getMessage());
            install(last + 1, createSegment(last + 1, 0));
        }
    }

    /** Takes the lowest slot under {@code root} no other live instance holds and opens a new segment in it. */
    public static EventJournal open(Path root, long maxSegmentBytes) {
        try {
            Files.createDirectories(root);
            for (int slot = 0; slot < MAX_SLOTS; slot++) {
                Path dir = root.resolve(Integer.toString(slot));
                Files.createDirectories(dir);
                FileChannel channel = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                FileLock lock = tryLock(channel);
                if (lock != null) {
                    return new EventJournal(dir, channel, lock, maxSegmentBytes);
                }
                channel.close();
            }
            throw new IllegalStateException("every journal slot under " + root + " is held by a running instance");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the event journal under " + root, e);
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldInThisJvm) {
            return null;
        }
    }

    public Path dir() {
        return dir;
    }

    /** The end of what an earlier run left in this slot (to replay at start-up), or null when it left nothing. */
    public Position previousRunEnd() {
        return previousRunEnd;
    }

    /** The first position this run writes. */
    public Position runStart() {
        return new Position(previousRunEnd == null ? 1 : previousRunEnd.segment() + 1, 0);
    }

    /**
     * One event as a journal record, {@code [length][crc32][payload]}: encoded by the caller before it takes
     * its lock, so the lock covers only the copy.
     */
    public static byte[] record(JournalEntry.Kind kind, RequestEvent event) throws IOException {
        byte[] payload = EventCodec.encode(kind, event);
        if (payload.length > MAX_RECORD) {
            throw new IOException("request event of " + payload.length + " bytes is over the journal's record limit");
        }
        CRC32 crc = new CRC32();
        crc.update(payload);
        byte[] record = new byte[HEADER + payload.length];
        ByteBuffer.wrap(record).putInt(payload.length).putInt((int) crc.getValue()).put(payload);
        return record;
    }

    /** Appends one record (no fsync: {@link #sync()} does that for many); returns its end. */
    public Position append(JournalEntry.Kind kind, RequestEvent event) throws IOException {
        return append(record(kind, event));
    }

    /** Appends one record made by {@link #record}: a copy into the mapped segment; returns its end. */
    public Position append(byte[] record) throws IOException {
        if (size + record.length > current.map().capacity()) {
            rotate(); // no room left in this segment (or none at all: the disk was full when it was made)
        }
        current.map().put((int) size, record); // the page has its disk block: this copy cannot fault
        size += record.length;
        dirty = true;
        return new Position(segment, size);
    }

    public Position end() {
        return new Position(segment, size);
    }

    public boolean full() {
        return size >= maxSegmentBytes;
    }

    /** Tests: the end of the pages the last sync made ready for the appends (an offset in the current segment). */
    long readyUpTo() {
        return prefaultedTo;
    }

    /**
     * Starts the next segment (the one the sync thread prepared, when it has); the sync thread syncs the finished
     * one and cuts it to its length.
     */
    public void rotate() throws IOException {
        Segment old = current;
        long oldSize = size;
        creating.lock(); // waits only for a preparation under way (it began half a segment ago)
        try {
            Prepared ready = next.getAndSet(null);
            if (ready != null) {
                install(ready.number(), ready.segment());
            } else if (System.nanoTime() - nextCreationNanos < 0) {
                throw new IOException("no disk space for a new event journal segment (tried again each second)");
            } else {
                openSegment(segment + 1);
            }
        } finally {
            creating.unlock();
        }
        finished.add(new FinishedSegment(old, oldSize));
    }

    /** Group commit: one sync for everything appended since the last one, finished segments first. Any thread. */
    public void sync() {
        finishRotated();
        if (!dirty) {
            return;
        }
        dirty = false;
        try {
            current.sync(0, false);
        } catch (IOException | RuntimeException e) {
            dirty = true;
            log.warn("event journal sync failed: {}", e.toString());
            return;
        }
        prefault(current, size);
        prepareNext();
    }

    /**
     * On the sync thread, once the segment being written is half full: creates the next one (zeros, mapping), so
     * the rotation only switches to it. A preparation that fails leaves the rotation to make its own, as before.
     */
    private void prepareNext() {
        if (next.get() != null || size < maxSegmentBytes / 2 || System.nanoTime() - nextCreationNanos < 0) {
            return;
        }
        creating.lock();
        try {
            if (next.get() == null) {
                long number = segment + 1; // a rotation changes it only under this lock
                next.set(new Prepared(number, createSegment(number)));
            }
        } catch (IOException | RuntimeException e) {
            log.debug("event journal: next segment not prepared ahead (the rotation makes it): {}", e.toString());
        } finally {
            creating.unlock();
        }
    }

    /** Closes and deletes a prepared segment that was not taken (nothing was ever appended to it). */
    private void discard(Prepared unused) {
        if (unused == null) {
            return;
        }
        try {
            unused.segment().channel().close();
            Files.deleteIfExists(file(unused.number()));
        } catch (IOException e) {
            log.warn("event journal: an unused segment not deleted: {}", e.toString());
        }
    }

    /**
     * Makes the pages from {@code end} on writable before the appends reach them: what the last interval appended
     * and half again (a busier interval finds them ready too), never past the mapping. Each page gets one atomic
     * compare-and-set of a word from 0 to 0: a write access (the fault is taken here, not under the caller's
     * lock), and no byte changes, so it is safe while appends copy into the same page (a word an append already
     * wrote is not 0, the compare fails, and the append's bytes stay). Pages touched this way and not reached
     * by the next sync are written back as the zeros they are, and faulted again after it (a third of the
     * look-ahead). Only safe because every page has its disk block ({@link #createSegment}): on a page without
     * one the fault is a SIGBUS, which the interpreter does not survive in an atomic access (tried on JDK 17).
     */
    private void prefault(Segment segment, long end) {
        long appended = segment == prefaulted ? end - prefaultedFrom : end;
        prefaulted = segment;
        prefaultedFrom = end;
        long ahead = Math.min(AHEAD_MAX, Math.max(AHEAD_MIN, appended + appended / 2));
        long limit = Math.min(end + ahead, segment.map().capacity());
        prefaultedTo = limit;
        try {
            for (long page = end - end % PAGE; page < limit; page += PAGE) {
                long word = (Math.min(page + PAGE, limit) - Long.BYTES) & -Long.BYTES; // aligned, inside the mapping
                WORD.compareAndSet(segment.map(), (int) word, 0L, 0L);
            }
        } catch (InternalError unbacked) {
            // not expected (every page has its block); a segment cut short under it, at close
            log.debug("event journal: pages not prepared ahead of the appends: {}", unbacked.getMessage());
        }
    }

    private void finishRotated() {
        FinishedSegment done;
        while ((done = finished.poll()) != null) {
            try {
                done.segment().sync(done.length(), true);
            } catch (IOException | RuntimeException e) {
                log.warn("event journal: a finished segment not synced: {}", e.toString());
            }
        }
    }

    /** Up to {@code max} records after {@code from} and not past {@code until}, in order. */
    public List<Read> read(Position from, Position until, int max) throws IOException {
        List<Read> reads = new ArrayList<>();
        Position at = from;
        while (reads.size() < max && at.compareTo(until) < 0) {
            Path path = file(at.segment());
            long limit = at.segment() == until.segment() ? until.offset()
                    : Files.exists(path) ? Files.size(path) : 0;
            if (at.offset() < limit) {
                at = readSegment(path, at, limit, max, reads);
            }
            if (at.offset() >= limit || reads.size() < max) {
                if (at.segment() >= until.segment()) {
                    break;
                }
                at = new Position(at.segment() + 1, 0);
            }
        }
        return reads;
    }

    /** Reads records of one segment from {@code at} to {@code limit}; a torn or corrupt record ends the segment. */
    private Position readSegment(Path path, Position at, long limit, int max, List<Read> reads) throws IOException {
        long offset = at.offset();
        try (InputStream file = Files.newInputStream(path)) {
            file.skipNBytes(offset);
            DataInputStream in = new DataInputStream(new BufferedInputStream(file, 64 * 1024));
            while (reads.size() < max && offset < limit) {
                byte[] payload = nextPayload(in, limit - offset);
                if (payload == END) {
                    return new Position(at.segment(), limit); // the unused tail of a segment not yet cut to length
                }
                if (payload == null) {
                    log.warn("event journal {}: torn or corrupt record at byte {}; the {} bytes after it are skipped"
                            + " (a crash cut it short)", path.getFileName(), offset, limit - offset);
                    return new Position(at.segment(), limit);
                }
                offset += HEADER + payload.length;
                Position after = new Position(at.segment(), offset);
                try {
                    reads.add(new Read(EventCodec.decode(payload), after));
                } catch (IOException e) {
                    log.warn("event journal {}: record at byte {} skipped: {}", path.getFileName(),
                            offset - HEADER - payload.length, e.getMessage());
                }
            }
        }
        return new Position(at.segment(), offset);
    }

    /**
     * The next record's payload; {@link #END} where the records end; null when what follows is not a whole record
     * with a matching checksum.
     */
    private static byte[] nextPayload(DataInputStream in, long remaining) throws IOException {
        int length;
        try {
            length = in.readInt();
        } catch (EOFException fileEnd) {
            return END; // cut to its length since the read began
        }
        if (length == 0) {
            return END;
        }
        byte[] payload;
        int crc;
        try {
            if (remaining < HEADER) {
                return null;
            }
            crc = in.readInt();
            if (length <= 0 || length > MAX_RECORD || length > remaining - HEADER) {
                return null;
            }
            payload = new byte[length];
            in.readFully(payload);
        } catch (EOFException shorterThanExpected) {
            return null;
        }
        CRC32 check = new CRC32();
        check.update(payload);
        return (int) check.getValue() == crc ? payload : null;
    }

    /** Deletes the segments numbered from {@code floor} to below {@code segment} (never the one being written). */
    public void deleteBefore(long segment, long floor) {
        try {
            for (long s : segments()) {
                if (s >= floor && s < segment && s != this.segment) {
                    Files.deleteIfExists(file(s));
                }
            }
        } catch (IOException e) {
            log.warn("event journal: old segments not deleted: {}", e.toString());
        }
    }

    /** Segment numbers present in this slot, ascending. */
    public List<Long> segments() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(PREFIX) && n.endsWith(SUFFIX))
                    .map(n -> Long.parseLong(n.substring(PREFIX.length(), n.length() - SUFFIX.length())))
                    .sorted().toList();
        }
    }

    /** Creates, fills and maps segment {@code number} and makes it the one being written. */
    private void openSegment(long number) throws IOException {
        install(number, createSegment(number));
    }

    private void install(long number, Segment ready) {
        current = ready;
        segment = number;
        size = 0;
    }

    /**
     * A new segment file, mapped large enough for any record appended before the segment is full. It is written
     * with zeros first, so its disk blocks exist before anything is written through the mapping (and the fault
     * {@link #prefault} takes is safe on every page). No room for them (a full disk): the file goes, an
     * IOException says so, and no segment is tried again for a second.
     */
    private Segment createSegment(long number) throws IOException {
        return createSegment(number, maxSegmentBytes + HEADER + MAX_RECORD);
    }

    /** Segment {@code number} of {@code mapped} bytes (0: an empty one, which the first append replaces). */
    private Segment createSegment(long number, long mapped) throws IOException {
        return Uninterrupted.io(() -> {
            Path path = file(number);
            FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            try {
                fillWithZeros(channel, mapped);
                return new Segment(channel, channel.map(FileChannel.MapMode.READ_WRITE, 0, mapped));
            } catch (IOException | RuntimeException e) {
                channel.close();
                Files.deleteIfExists(path);
                nextCreationNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                throw e;
            }
        });
    }

    private static void fillWithZeros(FileChannel channel, long length) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocateDirect((int) Math.min(length, 256 * 1024));
        for (long at = 0; at < length; ) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), length - at));
            at += channel.write(zeros, at);
        }
    }

    private Path file(long number) {
        return dir.resolve(String.format("%s%012d%s", PREFIX, number, SUFFIX));
    }

    /**
     * Syncs and closes the journal and releases its slot. With {@code drained} (everything is in the
     * database) the segments are deleted first, so a clean stop leaves nothing to replay.
     */
    public void close(boolean drained) {
        try {
            discard(next.getAndSet(null));
            finishRotated();
            current.sync(size, true);
            if (drained) {
                for (long s : segments()) {
                    Files.deleteIfExists(file(s));
                }
            }
        } catch (IOException e) {
            log.warn("event journal not closed cleanly: {}", e.toString());
        } finally {
            try {
                lock.release();
                lockChannel.close();
            } catch (IOException e) {
                log.warn("event journal lock not released: {}", e.toString());
            }
        }
    }

    @Override
    public void close() {
        close(false);
    }
}
