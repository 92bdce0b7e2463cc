package dev.detour.demo;

import dev.detour.adapter.db.AdminUserMapper;
import dev.detour.adapter.db.Database;
import dev.detour.config.DetourConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The console sign-in a demo start can print. Maven's {@code -q} hides log lines, so the first-run
 * password must survive to be shown again: without {@code DETOUR_ADMIN_PASSWORD} it is kept in the
 * demo's data dir (0600), beside the demo's own database and master key — nothing the directory did
 * not already give away.
 *
 * @param firstAdminPassword what the first admin is created with (empty: keep the usual first run)
 * @param banner             the password part of the demo banner
 */
public record DemoCredentials(Optional<String> firstAdminPassword, String banner) {
    static final String FILE = "demo-admin-password";

    public static DemoCredentials resolve(DetourConfig config, Database database) {
        return resolve(config, () -> database.read(s -> s.getMapper(AdminUserMapper.class).countAll()) > 0);
    }

    static DemoCredentials resolve(DetourConfig config, BooleanSupplier adminExists) {
        if (config.adminPassword().isPresent()) {
            return new DemoCredentials(config.adminPassword(), "password from DETOUR_ADMIN_PASSWORD");
        }
        Path file = config.dataDir().resolve(FILE);
        try {
            if (Files.exists(file)) {
                return shown(Files.readString(file, StandardCharsets.UTF_8).trim());
            }
            if (adminExists.getAsBoolean()) {
                return new DemoCredentials(Optional.empty(), "password as set at the first demo start");
            }
            return shown(create(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the demo password in " + file, e);
        }
    }

    private static DemoCredentials shown(String password) {
        return new DemoCredentials(Optional.of(password), "password " + password);
    }

    private static String create(Path file) throws IOException {
        byte[] bytes = new byte[12];
        new SecureRandom().nextBytes(bytes);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Files.createDirectories(file.toAbsolutePath().getParent());
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(file);
        } catch (FileAlreadyExistsException raced) {
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        }
        Files.writeString(file, password + "\n", StandardCharsets.UTF_8);
        return password;
    }
}
