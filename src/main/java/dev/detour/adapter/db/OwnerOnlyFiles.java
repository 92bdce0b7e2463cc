package dev.detour.adapter.db;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/** directories (0700) and files (0600) that no other local user can open. */
final class OwnerOnlyFiles {
    static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private OwnerOnlyFiles() {
    }

    /** Creates the directory 0700, or narrows an existing one to 0700. */
    static void directory(Path dir) throws IOException {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
        Files.setPosixFilePermissions(dir, DIRECTORY);
    }

    /**
     * Writes a secret that is never readable by others, not even for a moment: a new file is
     * created 0600 (the umask can only take bits away), filled, synced, then renamed over the
     * target, so a crash leaves either the old file or the new one, never half of one.
     */
    static void writeAtomically(Path file, String content) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".new");
        Files.deleteIfExists(next);
        // CREATE_NEW: fails on anything already there, a symbolic link included
        try (FileChannel channel = FileChannel.open(next, EnumSet.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(FILE))) {
            ByteBuffer bytes = ByteBuffer.wrap((content + "\n").getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** A secret file copied or chmod-ed wider by hand is narrowed back to 0600. */
    static void tighten(Path file) throws IOException {
        if (!Files.getPosixFilePermissions(file).equals(FILE)) {
            Files.setPosixFilePermissions(file, FILE);
        }
    }
}
