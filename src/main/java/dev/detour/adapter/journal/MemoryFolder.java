package dev.detour.adapter.journal;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * D-2: the private folder on a memory file system (tmpfs, {@code /dev/shm} by default) where a data dir's event
 * journal maps its segments ({@link EventJournal}): one per data dir, named by a random id kept in the journal
 * folder ({@value #ID_FILE}), so a restarted instance finds what its killed predecessor left there, and a data dir
 * deleted and made again under the same path never takes (and replays) the memory copies of the old one.
 *
 * <p>{@code /dev/shm} is writable by every local user, so a folder found there is used only when it is a real
 * folder (not a link) owned by this process's user, and it is narrowed to 0700 (X-1: the events are the request
 * log); anything else, or a base that is not tmpfs (a disk folder would be written back like the data dir), leaves
 * the journal mapped in the data dir, with one log line saying why.
 */
public final class MemoryFolder {
    private static final Logger log = LoggerFactory.getLogger(MemoryFolder.class);
    static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rwx------");
    private static final Set<String> MEMORY_FILE_SYSTEMS = Set.of("tmpfs", "ramfs");
    static final String ID_FILE = "memory-folder-id";
    private static final Pattern ID = Pattern.compile("[0-9a-f]{32}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private MemoryFolder() {
    }

    /**
     * The folder under {@code base} for the journal under {@code journalRoot} (which must exist), made if absent; or
     * null when {@code base} is not a memory file system or the folder cannot be trusted (logged).
     */
    public static Path under(Path base, Path journalRoot) {
        try {
            if (!Files.isDirectory(base)) {
                log.info("event journal: {} is not a folder; segments are mapped in the data dir", base);
                return null;
            }
            String type = Files.getFileStore(base).type();
            if (!MEMORY_FILE_SYSTEMS.contains(type)) {
                log.info("event journal: {} is {}, not a memory file system; segments are mapped in the data dir",
                        base, type);
                return null;
            }
            return owned(folder(base, id(journalRoot)), journalRoot);
        } catch (IOException | RuntimeException e) {
            log.warn("event journal: no folder in {} ({}); segments are mapped in the data dir", base, e.toString());
            return null;
        }
    }

    /**
     * The folder {@link #under} gives the journal under {@code journalRoot}, without making anything; null when that
     * journal never had one (tools and tests that clean up after a process they killed).
     */
    public static Path existing(Path base, Path journalRoot) throws IOException {
        Path file = journalRoot.resolve(ID_FILE);
        return Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? folder(base, readId(file)) : null;
    }

    private static Path folder(Path base, String id) {
        return base.resolve("detour-journal-" + id);
    }

    private static Path owned(Path folder, Path journalRoot) throws IOException {
        try {
            Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(PRIVATE));
        } catch (FileAlreadyExistsException left) {
            // a killed run's, or planted by another user: checked below
        }
        boolean realFolder = Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS);
        if (!realFolder || !Files.getOwner(folder, LinkOption.NOFOLLOW_LINKS)
                .equals(Files.getOwner(journalRoot, LinkOption.NOFOLLOW_LINKS))) {
            log.warn("event journal: {} is not a folder this user owns (a link, a file or another user's folder);"
                    + " segments are mapped in the data dir", folder);
            return null;
        }
        Files.setPosixFilePermissions(folder, PRIVATE);
        return folder;
    }

    /**
     * The journal folder's id: read, or made once (written to a file of its own, then linked to its name: of two
     * instances starting on a new data dir at once, one id wins and both use it).
     */
    private static String id(Path journalRoot) throws IOException {
        Path file = journalRoot.resolve(ID_FILE);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] bytes = new byte[16];
            RANDOM.nextBytes(bytes);
            Path mine = Files.createTempFile(journalRoot, ID_FILE, ".new");
            try {
                Files.writeString(mine, HexFormat.of().formatHex(bytes) + "\n", StandardOpenOption.SYNC);
                Files.createLink(file, mine);
            } catch (FileAlreadyExistsException another) {
                // another instance made it first: its id is the data dir's
            } finally {
                Files.deleteIfExists(mine);
            }
        }
        return readId(file);
    }

    private static String readId(Path file) throws IOException {
        String id = Files.readString(file).trim();
        if (!ID.matcher(id).matches()) {
            throw new IOException(file + " does not hold a folder id (32 hex digits)");
        }
        return id;
    }
}
