package dev.detour.adapter.journal;

import dev.detour.gateway.port.RequestEvent;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
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
    private volatile FileChannel out;
    private long segment;
    private long size;
    private volatile boolean dirty;
    private boolean torn;

    private EventJournal(Path dir, FileChannel lockChannel, FileLock lock, long maxSegmentBytes) throws IOException {
        this.dir = dir;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.maxSegmentBytes = maxSegmentBytes;
        List<Long> existing = segments();
        long last = existing.isEmpty() ? 0 : existing.get(existing.size() - 1);
        this.previousRunEnd = existing.isEmpty() ? null : new Position(last, Files.size(file(last)));
        openSegment(last + 1);
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

    /** Appends one record with one write (no fsync: {@link #sync()} does that for many); returns its end. */
    public Position append(JournalEntry.Kind kind, RequestEvent event) throws IOException {
        byte[] payload = EventCodec.encode(kind, event);
        CRC32 crc = new CRC32();
        crc.update(payload);
        ByteBuffer record = ByteBuffer.allocate(HEADER + payload.length);
        record.putInt(payload.length).putInt((int) crc.getValue()).put(payload).flip();
        if (torn) {
            rotate(); // the last failed append may have left part of a record that truncate could not take back
            torn = false;
        }
        long start = size;
        try {
            size += Uninterrupted.io(() -> {
                long written = 0;
                while (record.hasRemaining()) {
                    written += out.write(record);
                }
                return written;
            });
        } catch (IOException e) {
            // a half-written record (disk full) would end every later read of this segment: take it back
            try {
                out.truncate(start);
                size = start;
            } catch (IOException stillFailing) {
                torn = true;
            }
            throw e;
        }
        dirty = true;
        return new Position(segment, size);
    }

    public Position end() {
        return new Position(segment, size);
    }

    public boolean full() {
        return size >= maxSegmentBytes;
    }

    /** Syncs and closes the current segment and starts the next one. */
    public void rotate() throws IOException {
        FileChannel old = out;
        if (old.isOpen()) { // an interrupt mid-write closes a channel: then only the next segment is left
            old.force(false);
        }
        openSegment(segment + 1);
        old.close();
    }

    /** Group commit: one fsync for everything appended since the last one. Any thread. */
    public void sync() {
        if (!dirty) {
            return;
        }
        dirty = false;
        FileChannel channel = out;
        try {
            channel.force(false);
        } catch (IOException e) {
            dirty = true;
            if (channel.isOpen()) {
                log.warn("event journal sync failed: {}", e.toString());
            } // else rotated meanwhile, which synced it
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

    /** The next record's payload, or null when what follows is not a whole record with a matching checksum. */
    private static byte[] nextPayload(DataInputStream in, long remaining) throws IOException {
        if (remaining < HEADER) {
            return null;
        }
        byte[] payload;
        int crc;
        try {
            int length = in.readInt();
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

    private void openSegment(long number) throws IOException {
        out = FileChannel.open(file(number), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        segment = number;
        size = 0;
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
            out.force(false);
            out.close();
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
