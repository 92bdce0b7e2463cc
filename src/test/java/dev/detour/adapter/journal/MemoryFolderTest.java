package dev.detour.adapter.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** D-2 / X-1: which memory folder a journal may map its segments in (the real /dev/shm). */
class MemoryFolderTest {
    private static final Path SHM = Path.of("/dev/shm");

    @TempDir
    Path data;

    private final List<Path> made = new ArrayList<>();

    @AfterEach
    void removeWhatTheTestMadeInDevShm() throws IOException {
        for (Path p : made) {
            Files.deleteIfExists(p);
        }
    }

    @Test
    void onTmpfsEachDataDirGetsItsOwnPrivateFolderAndTheSameOneAgainAfterARestart() throws IOException {
        assumeTmpfs();
        Path journal = Files.createDirectories(data.resolve("a/journal"));
        Path other = Files.createDirectories(data.resolve("b/journal"));

        Path folder = track(MemoryFolder.under(SHM, journal));

        assertNotNull(folder);
        assertEquals(SHM, folder.getParent());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
        assertEquals(folder, MemoryFolder.under(SHM, journal), "a restart finds what its killed predecessor left");
        assertEquals(folder, MemoryFolder.existing(SHM, journal));
        assertNull(MemoryFolder.existing(SHM, Files.createDirectories(data.resolve("c/journal"))), "none made yet");
        assertNotEquals(folder, track(MemoryFolder.under(SHM, other)));
    }

    @Test
    void aDataDirDeletedAndMadeAgainUnderTheSamePathNeverTakesTheOldOnesMemoryCopies() throws IOException {
        assumeTmpfs();
        Path journal = Files.createDirectories(data.resolve("journal"));
        Path old = track(MemoryFolder.under(SHM, journal));
        Files.writeString(old.resolve("left-by-a-killed-run"), "events of the old data dir");
        made.add(0, old.resolve("left-by-a-killed-run"));
        Files.delete(journal.resolve(MemoryFolder.ID_FILE));
        Files.delete(journal); // rm -rf data, then a fresh start
        Files.createDirectories(journal);

        Path fresh = track(MemoryFolder.under(SHM, journal));

        assertNotEquals(old, fresh);
        assertEquals(List.of(), Files.list(fresh).toList());
    }

    @Test
    void aDamagedIdLeavesTheJournalInTheDataDir() throws IOException {
        assumeTmpfs();
        Path journal = Files.createDirectories(data.resolve("journal"));
        Files.writeString(journal.resolve(MemoryFolder.ID_FILE), "../../etc\n");

        assertNull(MemoryFolder.under(SHM, journal));
    }

    @Test
    void anExistingFolderLeftWiderIsNarrowedToTheOwner() throws IOException {
        assumeTmpfs();
        Path journal = Files.createDirectories(data.resolve("journal"));
        Path folder = track(MemoryFolder.under(SHM, journal));
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertEquals(folder, MemoryFolder.under(SHM, journal));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
    }

    @Test
    void aLinkPlantedUnderTheFoldersNameIsRefusedAndItsTargetLeftAlone() throws IOException {
        Path journal = Files.createDirectories(data.resolve("journal"));
        Path folder = nameFreedAgain(journal);
        Path elsewhere = Files.createDirectories(data.resolve("attacker-readable"));
        Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.createSymbolicLink(folder, elsewhere);

        assertNull(MemoryFolder.under(SHM, journal), "the journal maps in the data dir instead");
        assertTrue(Files.isSymbolicLink(folder));
        assertEquals("rwxrwxrwx", PosixFilePermissions.toString(Files.getPosixFilePermissions(elsewhere)));
    }

    @Test
    void aFileUnderTheFoldersNameIsRefused() throws IOException {
        Path journal = Files.createDirectories(data.resolve("journal"));
        Path folder = nameFreedAgain(journal);
        Files.createFile(folder);

        assertNull(MemoryFolder.under(SHM, journal));
        assertTrue(Files.isRegularFile(folder, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void aFolderOnADiskIsNotAMemoryFolder() throws IOException {
        Path disk = Files.createDirectories(Path.of("target", "not-tmpfs")).toAbsolutePath();
        assumeTrue(!Files.getFileStore(disk).type().equals("tmpfs"), "target/ is on tmpfs here");
        Path journal = Files.createDirectories(data.resolve("journal"));

        assertNull(MemoryFolder.under(disk, journal), "it would be written back like the data dir");
        assertNull(MemoryFolder.under(disk.resolve("absent"), journal));
    }

    /** The folder's name for {@code journal}, made and deleted again: free for another local user to plant. */
    private Path nameFreedAgain(Path journal) throws IOException {
        assumeTmpfs();
        Path folder = track(MemoryFolder.under(SHM, journal));
        Files.delete(folder);
        return folder;
    }

    private Path track(Path folder) {
        if (folder != null) {
            made.add(folder);
        }
        return folder;
    }

    private static void assumeTmpfs() throws IOException {
        assumeTrue(Files.isDirectory(SHM) && Files.getFileStore(SHM).type().equals("tmpfs"),
                "SKIPPED LOUDLY: no tmpfs at /dev/shm on this machine");
    }
}
