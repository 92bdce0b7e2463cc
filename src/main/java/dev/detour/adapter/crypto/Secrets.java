package dev.detour.adapter.crypto;

import dev.detour.config.ConfigException;
import dev.detour.config.DetourConfig;
import dev.detour.core.secret.SecretMask;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The master key (SPEC §1, O-1): {@code DETOUR_MASTER_KEY} when set, otherwise
 * {@code <data dir>/master.key} (base64 of 32 random bytes, mode 0600), generated once on the
 * first start and reused after every restart. Losing that file makes stored api keys unreadable.
 */
public final class Secrets {
    public static final String KEY_FILE = "master.key";
    private final SecretBox box;

    private Secrets(byte[] masterKey) {
        this.box = new SecretBox(masterKey);
    }

    public static Secrets load(DetourConfig config) {
        return new Secrets(config.masterKey().orElseGet(() -> fileKey(config.dataDir().resolve(KEY_FILE))));
    }

    public SecretBox box() {
        return box;
    }

    /** {@code sk-…abcd}: the one masking format of X-5, {@link SecretMask#hint}. */
    public static String hint(String apiKey) {
        return SecretMask.hint(apiKey);
    }

    private static byte[] fileKey(Path file) {
        try {
            if (!Files.exists(file)) {
                createKeyFile(file);
            }
            return readKeyFile(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create the master key file " + file, e);
        }
    }

    private static void createKeyFile(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        byte[] content = (Base64.getEncoder().encodeToString(key) + "\n").getBytes(StandardCharsets.US_ASCII);
        try {
            // created with 0600 from the start: the key is never readable by others, not even briefly
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(file, content, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (FileAlreadyExistsException raced) {
            // another process created it first: use theirs
        } catch (UnsupportedOperationException notPosix) {
            Files.write(file, content, StandardOpenOption.CREATE_NEW);
        }
    }

    private static byte[] readKeyFile(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
        try {
            byte[] key = Base64.getDecoder().decode(text);
            if (key.length == 32) {
                return key;
            }
        } catch (IllegalArgumentException ignored) {
            // reported below
        }
        throw new ConfigException("DETOUR_MASTER_KEY: the key file " + file + " must hold base64 of 32 bytes");
    }
}
