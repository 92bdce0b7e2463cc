package dev.detour.adapter.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.detour.config.ConfigException;
import dev.detour.config.DetourConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretsIT {
    @TempDir
    Path dataDir;

    @Test
    void generatedMasterKeyFileIsPrivateAndReusedAfterRestart() throws IOException {
        DetourConfig config = DetourConfig.defaults(dataDir, 0);
        String sealed = Secrets.load(config).box().seal("sk-abc-123456", 9);
        Path file = dataDir.resolve("master.key");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        byte[] key = Base64.getDecoder().decode(Files.readString(file).trim());
        assertEquals(32, key.length);
        String before = Files.readString(file);

        Secrets afterRestart = Secrets.load(config);
        assertEquals(before, Files.readString(file));
        assertEquals("sk-abc-123456", afterRestart.box().open(sealed, 9));
        assertEquals("sk-abc-123456", new SecretBox(key).open(sealed, 9));
    }

    @Test
    void configuredMasterKeyIsUsedAndNoFileIsWritten() {
        byte[] key = new byte[32];
        key[0] = 7;
        DetourConfig config = DetourConfig.defaults(dataDir, 0).withSecrets(key, null, null);
        String sealed = Secrets.load(config).box().seal("sk-abc-123456", 9);
        assertEquals("sk-abc-123456", new SecretBox(key).open(sealed, 9));
        assertFalse(Files.exists(dataDir.resolve("master.key")));
    }

    @Test
    void corruptKeyFileFailsStartWithOneClearLine() throws IOException {
        Files.writeString(dataDir.resolve("master.key"), "not-a-key");
        var e = assertThrows(ConfigException.class, () -> Secrets.load(DetourConfig.defaults(dataDir, 0)));
        assertEquals(true, e.getMessage().startsWith("DETOUR_MASTER_KEY"));
        assertArrayEquals("not-a-key".getBytes(), Files.readAllBytes(dataDir.resolve("master.key")));
    }
}
