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
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
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
 * <p>An append is a copy into a mapped segment: no system call and no file-size change, so a killed process
 * still leaves every appended record to the kernel, and a request thread never waits on a file system
 * (every request appends twice). Where the mapping lives decides what the sync costs:
 * <ul>
 * <li><b>In memory</b> (a {@code memoryDir} on tmpfs, {@code /dev/shm} by default): the mapped file is never
 *     written back, so its pages stay writable; at each sync (every 100 ms) the sync thread copies what was
 *     appended to the segment file in the data dir with {@code write} and {@code fdatasync}. A killed process
 *     leaves the memory copy, which the next start copies into the data dir before it replays; a reboot loses
 *     the memory copy and what the last sync had not written, as a power loss does with the mapped file. A
 *     finished segment's memory file is zeroed and kept as the next segment's ("spare"), so the mappings never
 *     pile up waiting for the garbage collector to unmap them.</li>
 * <li><b>In place</b> (no memory folder): the segment file in the data dir is mapped and synced with
 *     {@code msync}. On a virtual machine that costs far more than the copy: the writeback write-protects every
 *     page it cleans (a TLB shootdown, an interrupt to every core, per page: 12 % of Detour's CPU on the
 *     bench's VM) and the next append to the page faults into the file system (docs/performance.md).</li>
 * </ul>
 * The mapping is larger than the segment so any record fits; the unused tail reads as zeros, which end a
 * segment cleanly. A finished segment is synced and cut to its length by {@link #sync()}.
 *
 * <p>A copy into a mapped page still faults when the page is new (and, in place, again after every sync); the
 * file system serves that fault and can make it wait behind its own journal commit, under the caller's lock. So
 * the sync thread does that work: it creates the next segment while this one fills, every segment is written
 * with zeros before it is mapped (its pages exist, so none can fail to be backed), and after each sync it faults
 * in the pages the next interval will write (see {@link #prefault}).
 *
 * <p>Not thread-safe for writes: the caller ({@code AsyncEventWriter}) appends under its own lock.
 * {@link #sync()} may run on another thread; reads open their own file handles (in memory: after copying what
 * they are to read into the data dir).
 */
public final class EventJournal implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EventJournal.class);
    private static final String PREFIX = "events-";
    private static final String SUFFIX = ".journal";
    private static final String SPARE = "spare-";
    private static final int HEADER = 8;
    private static final int MAX_RECORD = 1 << 20;
    private static final int MAX_SLOTS = 64;
    /** Finished memory files kept for the next segments; more are deleted (their mappings go with the GC). */
    private static final int MAX_SPARES = 1;
    /** What {@link #nextPayload} returns where the records end: a mapped segment's zero tail, or the file's end. */
    private static final byte[] END = new byte[0];
    private static final byte[] ZEROS = new byte[64 * 1024];
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
    /** Where segments are mapped (tmpfs) and copied from into {@link #dir}; null: mapped in place. */
    private final Path memoryDir;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final long maxSegmentBytes;
    /** What a segment maps: the segment and room for the largest record. */
    private final long mappedBytes;
    private final Position previousRunEnd;
    /** The segment being written; replaced (under the caller's lock) at rotation, read by the sync thread. */
    private volatile Segment current;
    /** The segment after it, made ready by the sync thread once this one is half full; taken by {@link #rotate}. */
    private final AtomicReference<Segment> next = new AtomicReference<>();
    /** Held to create a segment file, so a preparation and a rotation never race for the same number. */
    private final ReentrantLock creating = new ReentrantLock();
    /** Held to copy a memory segment into the data dir: the sync thread and a reader may both copy. */
    private final ReentrantLock copying = new ReentrantLock();
    /** Rotated segments still to be synced and cut (or copied) by the sync thread or close, oldest first. */
    private final Queue<Segment> finished = new ConcurrentLinkedQueue<>();
    /** In memory: finished memory files, zeroed, for the next segments. */
    private final Queue<Slab> spares = new ConcurrentLinkedQueue<>();
    /** Sync thread only: where the last prefault began (its segment and offset), to size the next one. */
    private Segment prefaulted;
    private long prefaultedFrom;
    /** Sync thread only: where the last prefault ended (the appends find pages writable up to there). */
    private volatile long prefaultedTo;
    private volatile boolean dirty;
    /** Sync thread: the last attempt to finish a rotated segment failed (said once until one succeeds). */
    private boolean finishFailing;
    /** After a segment could not be made (no disk space), none is tried again before this (System.nanoTime). */
    private volatile long nextCreationNanos = System.nanoTime();

    /** A mapped memory file: the memory copy of a segment, or a spare. */
    private record Slab(Path file, MappedByteBuffer map) {
    }

    /**
     * One segment: its mapping, written with zeros before it was mapped so each of its pages exists (a write
     * through the mapping never faults for want of a block or a tmpfs page: that fault is a SIGBUS, which the VM
     * turns into an InternalError thrown at some later point of the writing thread, or survives not at all).
     */
    private static final class Segment {
        final long number;
        final MappedByteBuffer map;
        /** The segment file in the data dir: mapped (in place), or written by {@link #copy} (in memory). */
        final FileChannel file;
        /** In memory: the mapped memory file; null in place. */
        final Path memoryFile;
        /** Bytes appended: written under the caller's lock, read by the sync thread and readers. */
        volatile long size;
        /** In memory, under {@code copying}: bytes copied into {@link #file}; closed once the segment is done. */
        long copied;
        boolean done;

        Segment(long number, MappedByteBuffer map, FileChannel file, Path memoryFile) {
            this.number = number;
            this.map = map;
            this.file = file;
            this.memoryFile = memoryFile;
        }

        /** In memory, under {@code copying}: writes the appended bytes up to {@code upTo} into the data dir. */
        void copy(long upTo) throws IOException {
            if (done || copied >= upTo) {
                return;
            }
            ByteBuffer bytes = map.slice((int) copied, (int) (upTo - copied));
            Uninterrupted.io(() -> {
                while (bytes.hasRemaining()) {
                    copied += file.write(bytes, copied);
                }
                return null;
            });
        }
    }

    private EventJournal(Path dir, Path memoryDir, FileChannel lockChannel, FileLock lock, long maxSegmentBytes)
            throws IOException {
        this.dir = dir;
        this.memoryDir = memoryDir;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.maxSegmentBytes = maxSegmentBytes;
        this.mappedBytes = maxSegmentBytes + HEADER + MAX_RECORD;
        if (memoryDir != null) {
            recoverMemoryCopies();
        }
        List<Long> existing = segments();
        long last = existing.isEmpty() ? 0 : existing.get(existing.size() - 1);
        this.previousRunEnd = existing.isEmpty() ? null : new Position(last, Files.size(file(last)));
        try {
            current = createSegment(last + 1);
        } catch (IOException noRoom) {
            // a full disk must not stop the start: an empty segment, so the first append makes a real one (or fails)
            log.error("event journal {}: no room for a segment ({}); events wait in memory until there is", dir,
                    noRoom.getMessage());
            current = createSegment(last + 1, 0);
        }
    }

    /** Takes the lowest slot under {@code root} no other live instance holds; segments mapped in place. */
    public static EventJournal open(Path root, long maxSegmentBytes) {
        return open(root, null, maxSegmentBytes);
    }

    /**
     * Takes the lowest slot under {@code root} no other live instance holds and opens a new segment in it. With a
     * {@code memoryRoot} (a private folder on tmpfs: {@link MemoryFolder}) the segments are mapped in its folder of
     * the same slot and copied into the data dir at each sync; a slot folder that cannot be made there leaves the
     * segments mapped in place (logged).
     */
    public static EventJournal open(Path root, Path memoryRoot, long maxSegmentBytes) {
        try {
            Files.createDirectories(root);
            for (int slot = 0; slot < MAX_SLOTS; slot++) {
                Path dir = root.resolve(Integer.toString(slot));
                Files.createDirectories(dir);
                FileChannel channel = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                FileLock lock = tryLock(channel);
                if (lock != null) {
                    return new EventJournal(dir, memorySlot(memoryRoot, slot), channel, lock, maxSegmentBytes);
                }
                channel.close();
            }
            throw new IllegalStateException("every journal slot under " + root + " is held by a running instance");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the event journal under " + root, e);
        }
    }

    /** The slot's folder under {@code memoryRoot} (0700), or null (segments mapped in place) when none can be made. */
    private static Path memorySlot(Path memoryRoot, int slot) {
        if (memoryRoot == null) {
            return null;
        }
        Path dir = memoryRoot.resolve(Integer.toString(slot));
        try {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(MemoryFolder.PRIVATE));
            return dir;
        } catch (IOException | RuntimeException e) {
            log.warn("event journal: no folder in {} ({}); segments are mapped in the data dir", memoryRoot,
                    e.toString());
            return null;
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldInThisJvm) {
            return null;
        }
    }

    /**
     * In memory, at start: what a killed run left in its memory copies (the last sync's copy may lag) is copied
     * into the data dir's segment files, whole records only; then the memory files go. After a reboot there are
     * none, and the data dir holds what the last sync copied.
     */
    private void recoverMemoryCopies() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(memoryDir)) {
            files = list.sorted().toList();
        }
        for (Path f : files) {
            String name = f.getFileName().toString();
            if (isSegment(name)) {
                long number = segmentNumber(name);
                long end = recordsEnd(f);
                Path kept = file(number);
                long have = Files.exists(kept) ? Files.size(kept) : 0;
                if (end > have) {
                    try (FileChannel from = FileChannel.open(f, StandardOpenOption.READ);
                            FileChannel to = FileChannel.open(kept, StandardOpenOption.CREATE,
                                    StandardOpenOption.WRITE)) {
                        for (long at = have; at < end; ) {
                            at += from.transferTo(at, end - at, to.position(at));
                        }
                        to.force(false);
                    }
                    log.info("event journal {}: {} bytes of segment {} the previous run had not copied yet, taken"
                            + " from its memory copy", dir, end - have, number);
                }
            }
            Files.deleteIfExists(f);
        }
    }

    /** Where the whole records of a segment file end. */
    private static long recordsEnd(Path segment) throws IOException {
        long size = Files.size(segment);
        long end = 0;
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(segment),
                64 * 1024))) {
            while (end < size) {
                byte[] payload = nextPayload(in, size - end);
                if (payload == null || payload == END) {
                    break;
                }
                end += HEADER + payload.length;
            }
        }
        return end;
    }

    public Path dir() {
        return dir;
    }

    /** Where this journal maps its segments when not in place (null: in place). */
    public Path memoryDir() {
        return memoryDir;
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
        RecordWriter out = new RecordWriter(HEADER);
        EventCodec.write(out, kind, event);
        int length = out.size() - HEADER;
        if (length > MAX_RECORD) {
            throw new IOException("request event of " + length + " bytes is over the journal's record limit");
        }
        CRC32 crc = new CRC32();
        crc.update(out.array(), HEADER, length);
        out.putIntAt(0, length);
        out.putIntAt(4, (int) crc.getValue());
        return out.toByteArray();
    }

    /** Appends one record (no fsync: {@link #sync()} does that for many); returns its end. */
    public Position append(JournalEntry.Kind kind, RequestEvent event) throws IOException {
        return append(record(kind, event));
    }

    /** Appends one record made by {@link #record}: a copy into the mapped segment; returns its end. */
    public Position append(byte[] record) throws IOException {
        Segment s = current;
        if (s.size + record.length > s.map.capacity()) {
            rotate(); // no room left in this segment (or none at all: the disk was full when it was made)
            s = current;
        }
        s.map.put((int) s.size, record); // the page exists: this copy cannot fault for want of one
        s.size += record.length; // only the caller's lock writes it
        dirty = true;
        return new Position(s.number, s.size);
    }

    public Position end() {
        Segment s = current;
        return new Position(s.number, s.size);
    }

    public boolean full() {
        return current.size >= maxSegmentBytes;
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
        creating.lock(); // waits only for a preparation under way (it began half a segment ago)
        try {
            Segment ready = next.getAndSet(null);
            if (ready == null) {
                if (System.nanoTime() - nextCreationNanos < 0) {
                    throw new IOException("no disk space for a new event journal segment (tried again each second)");
                }
                ready = createSegment(old.number + 1);
            }
            finished.add(old); // before the switch: a reader that finds the new segment current finds this one here
            current = ready;
        } finally {
            creating.unlock();
        }
    }

    /** Group commit: one sync for everything appended since the last one, finished segments first. Any thread. */
    public void sync() {
        finishRotated();
        if (!dirty) {
            return;
        }
        dirty = false;
        Segment s = current;
        long size = s.size;
        try {
            if (memoryDir == null) {
                s.map.force();
            } else {
                copyAndSync(s, size, false);
            }
        } catch (IOException | RuntimeException e) {
            dirty = true;
            log.warn("event journal sync failed: {}", e.toString());
            return;
        }
        prefault(s, size);
        prepareNext(s);
    }

    /**
     * In memory: copies what was appended up to {@code upTo} into the data dir and syncs it there; with {@code last}
     * (a finished segment) the file is closed and the segment done: readers find all of it in the data dir.
     */
    private void copyAndSync(Segment s, long upTo, boolean last) throws IOException {
        copying.lock();
        try {
            if (s.done) {
                return;
            }
            s.copy(upTo);
            Uninterrupted.io(() -> {
                if (s.file.isOpen()) { // a retry after a close that failed: synced and closed already
                    s.file.force(false);
                    if (last) {
                        s.file.close();
                    }
                }
                return null;
            });
            s.done = last;
        } finally {
            copying.unlock();
        }
    }

    /**
     * On the sync thread, once the segment being written is half full: creates the next one (zeros, mapping), so
     * the rotation only switches to it. A preparation that fails leaves the rotation to make its own, as before.
     */
    private void prepareNext(Segment s) {
        if (next.get() != null || s.size < maxSegmentBytes / 2 || System.nanoTime() - nextCreationNanos < 0) {
            return;
        }
        creating.lock();
        try {
            if (next.get() == null) {
                next.set(createSegment(current.number + 1)); // a rotation changes it only under this lock
            }
        } catch (IOException | RuntimeException e) {
            log.debug("event journal: next segment not prepared ahead (the rotation makes it): {}", e.toString());
        } finally {
            creating.unlock();
        }
    }

    /** Closes and deletes a prepared segment that was not taken (nothing was ever appended to it). */
    private void discard(Segment unused) {
        if (unused == null) {
            return;
        }
        try {
            unused.file.close();
            Files.deleteIfExists(file(unused.number));
            if (unused.memoryFile != null) {
                Files.deleteIfExists(unused.memoryFile);
            }
        } catch (IOException e) {
            log.warn("event journal: an unused segment not deleted: {}", e.toString());
        }
    }

    /**
     * Makes the pages from {@code end} on writable before the appends reach them: what the last interval appended
     * and half again (a busier interval finds them ready too), never past the mapping. Each page gets one atomic
     * compare-and-set of a word from 0 to 0: a write access (the fault is taken here, not under the caller's
     * lock), and no byte changes, so it is safe while appends copy into the same page (a word an append already
     * wrote is not 0, the compare fails, and the append's bytes stay). In place, pages touched this way and not
     * reached by the next sync are written back as the zeros they are, and faulted again after it (a third of the
     * look-ahead); in memory a page, once faulted, stays writable. Only safe because every page exists
     * ({@link #createSegment}): on a page without its block the fault is a SIGBUS, which the interpreter does not
     * survive in an atomic access (tried on JDK 17).
     */
    private void prefault(Segment segment, long end) {
        long appended = segment == prefaulted ? end - prefaultedFrom : end;
        prefaulted = segment;
        prefaultedFrom = end;
        long ahead = Math.min(AHEAD_MAX, Math.max(AHEAD_MIN, appended + appended / 2));
        long limit = Math.min(end + ahead, segment.map.capacity());
        prefaultedTo = limit;
        try {
            for (long page = end - end % PAGE; page < limit; page += PAGE) {
                long word = (Math.min(page + PAGE, limit) - Long.BYTES) & -Long.BYTES; // aligned, inside the mapping
                WORD.compareAndSet(segment.map, (int) word, 0L, 0L);
            }
        } catch (InternalError unbacked) {
            // not expected (every page has its block); a segment cut short under it, at close
            log.debug("event journal: pages not prepared ahead of the appends: {}", unbacked.getMessage());
        }
    }

    /** Syncs and closes the rotated segments, oldest first; one that fails stays for the next sync (said once). */
    private void finishRotated() {
        Segment done;
        while ((done = finished.peek()) != null) {
            try {
                finish(done);
                finishFailing = false;
            } catch (IOException | RuntimeException e) {
                if (!finishFailing) {
                    finishFailing = true;
                    log.warn("event journal: a finished segment not synced (tried again at each sync): {}",
                            e.toString());
                }
                return;
            }
            finished.poll(); // only now: a reader copying up to this segment finds it until it is complete
        }
    }

    /** A segment whose appends ended: synced and cut to its length (in place), or copied and synced (in memory). */
    private void finish(Segment s) throws IOException {
        if (memoryDir == null) {
            s.map.force();
            Uninterrupted.io(() -> {
                if (s.file.isOpen()) { // a retry after a close that failed: cut and closed already
                    s.file.truncate(s.size);
                    s.file.close();
                }
                return null;
            });
            return;
        }
        copyAndSync(s, s.size, true);
        keepAsSpare(s);
    }

    /**
     * In memory: a finished segment's memory file, now copied, is renamed a spare (a start after a crash ignores
     * it), zeroed where it was written, and kept for a later segment: mapped once, it costs no fault again.
     */
    private void keepAsSpare(Segment s) {
        try {
            if (s.map.capacity() != mappedBytes || spares.size() >= MAX_SPARES) {
                Files.deleteIfExists(s.memoryFile);
                return;
            }
            Path spare = memoryDir.resolve(SPARE + s.number);
            Files.move(s.memoryFile, spare, StandardCopyOption.ATOMIC_MOVE);
            for (int at = 0; at < s.size; at += ZEROS.length) {
                s.map.put(at, ZEROS, 0, (int) Math.min(ZEROS.length, s.size - at));
            }
            spares.add(new Slab(spare, s.map));
        } catch (IOException | RuntimeException e) {
            log.debug("event journal: a finished memory segment not kept for reuse: {}", e.toString());
        }
    }

    /** Up to {@code max} records after {@code from} and not past {@code until}, in order. */
    public List<Read> read(Position from, Position until, int max) throws IOException {
        if (memoryDir != null) {
            copyUpTo(until);
        }
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

    /**
     * In memory: makes the data dir's segment files hold everything appended up to {@code until} (no fsync: a
     * read needs the bytes, not their durability), so a reader reads only those files, never a memory file a
     * sync may be zeroing for reuse.
     */
    private void copyUpTo(Position until) throws IOException {
        copying.lock();
        try {
            Segment s = current; // read first: a segment rotated since is in finished (added before the switch)
            for (Segment f : finished) {
                if (f.number <= until.segment()) {
                    f.copy(f.size);
                }
            }
            if (s.number == until.segment()) {
                s.copy(Math.min(until.offset(), s.size));
            }
        } finally {
            copying.unlock();
        }
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
        long writing = current.number;
        try {
            for (long s : segments()) {
                if (s >= floor && s < segment && s != writing) {
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
                    .filter(EventJournal::isSegment)
                    .map(EventJournal::segmentNumber)
                    .sorted().toList();
        }
    }

    private Segment createSegment(long number) throws IOException {
        return createSegment(number, mappedBytes);
    }

    /**
     * Segment {@code number}, mapping {@code mapped} bytes (0: an empty one, which the first append replaces). Its
     * file in the data dir is created here (in memory: empty, written by the syncs), so the segments a start finds
     * are always those files. Every mapped page is written with zeros first (or is a spare's, zeroed), so each
     * exists before anything is written through the mapping (and the fault {@link #prefault} takes is safe on every
     * page). No room for them (a full disk or tmpfs): the files go, an IOException says so, and no segment is tried
     * again for a second.
     */
    private Segment createSegment(long number, long mapped) throws IOException {
        return Uninterrupted.io(() -> {
            Path path = file(number);
            FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            try {
                if (memoryDir == null) {
                    return new Segment(number, zeroedMapping(channel, mapped), channel, null);
                }
                Slab slab = slab(number, mapped);
                return new Segment(number, slab.map(), channel, slab.file());
            } catch (IOException | RuntimeException e) {
                channel.close();
                Files.deleteIfExists(path);
                nextCreationNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                throw e;
            }
        });
    }

    /** In memory: the mapped memory file of segment {@code number}: a spare renamed, or a new one. */
    private Slab slab(long number, long mapped) throws IOException {
        Path file = memoryDir.resolve(segmentName(number));
        Slab spare = mapped == mappedBytes ? spares.poll() : null;
        if (spare != null) {
            Files.move(spare.file(), file, StandardCopyOption.ATOMIC_MOVE);
            return new Slab(file, spare.map());
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            return new Slab(file, zeroedMapping(channel, mapped)); // the mapping outlives the channel
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** The file's first {@code length} bytes written with zeros (so every page exists), then mapped. */
    private static MappedByteBuffer zeroedMapping(FileChannel channel, long length) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocateDirect((int) Math.max(1, Math.min(length, 256 * 1024)));
        for (long at = 0; at < length; ) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), length - at));
            at += channel.write(zeros, at);
        }
        return channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
    }

    private Path file(long number) {
        return dir.resolve(segmentName(number));
    }

    private static String segmentName(long number) {
        return String.format("%s%012d%s", PREFIX, number, SUFFIX);
    }

    private static boolean isSegment(String name) {
        return name.startsWith(PREFIX) && name.endsWith(SUFFIX);
    }

    private static long segmentNumber(String name) {
        return Long.parseLong(name.substring(PREFIX.length(), name.length() - SUFFIX.length()));
    }

    /**
     * Syncs and closes the journal and releases its slot. With {@code drained} (everything is in the
     * database) the segments are deleted first, so a clean stop leaves nothing to replay. In memory, everything
     * is copied into the data dir first and the memory files go.
     */
    public void close(boolean drained) {
        try {
            discard(next.getAndSet(null));
            finishRotated();
            finish(current);
            if (memoryDir != null && finished.isEmpty()) {
                deleteMemoryFiles(); // every segment is in the data dir (else the next start copies what is not)
            }
            if (drained) {
                for (long s : segments()) {
                    Files.deleteIfExists(file(s));
                }
            }
        } catch (IOException | RuntimeException e) {
            log.warn("event journal not closed cleanly: {}", e.toString());
        } finally {
            releaseSlot();
        }
    }

    /** In memory, at close (everything is in the data dir): the slot's memory files and, once empty, its folders. */
    private void deleteMemoryFiles() throws IOException {
        try (Stream<Path> files = Files.list(memoryDir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        spares.clear();
        try {
            Files.deleteIfExists(memoryDir);
            Files.deleteIfExists(memoryDir.getParent()); // the data dir's folder, once no slot uses it
        } catch (DirectoryNotEmptyException another) {
            // another slot of the same data dir is running
        }
    }

    /** Tests: stops as a killed process does (nothing synced, copied or cut); only the slot's lock goes. */
    void abandon() {
        releaseSlot();
    }

    private void releaseSlot() {
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            log.warn("event journal lock not released: {}", e.toString());
        }
    }

    @Override
    public void close() {
        close(false);
    }
}
