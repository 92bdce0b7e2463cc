package dev.detour.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.config.DetourConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's console password survives `mvnw -q`: kept in the demo data dir, never a configured one. */
class DemoCredentialsIT {
    @TempDir
    Path dir;

    private DetourConfig config() {
        return DetourConfig.defaults(dir, 0).withDemo(true);
    }

    @Test
    void aConfiguredPasswordIsUsedButNeverPrintedOrStored() {
        DemoCredentials c = DemoCredentials.resolve(config().withSecrets(new byte[32], "configured-pw-1", null),
                () -> false);
        assertEquals(Optional.of("configured-pw-1"), c.firstAdminPassword());
        assertFalse(c.banner().contains("configured-pw-1"));
        assertFalse(Files.exists(dir.resolve(DemoCredentials.FILE)));
    }

    @Test
    void aFirstStartKeepsAGeneratedPasswordOwnerOnlyAndEveryLaterStartShowsTheSameOne() throws Exception {
        DemoCredentials first = DemoCredentials.resolve(config(), () -> false);
        String password = first.firstAdminPassword().orElseThrow();
        assertEquals(16, password.length());
        assertEquals("password " + password, first.banner());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(
                DemoCredentials.FILE))));
        assertEquals(first, DemoCredentials.resolve(config(), () -> true));
    }

    @Test
    void anAdminMadeWithoutTheFileKeepsItsPasswordAndTheBannerSaysSo() {
        DemoCredentials c = DemoCredentials.resolve(config(), () -> true);
        assertTrue(c.firstAdminPassword().isEmpty());
        assertEquals("password as set at the first demo start", c.banner());
        assertFalse(Files.exists(dir.resolve(DemoCredentials.FILE)));
    }
}
