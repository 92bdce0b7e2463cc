package dev.detour.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.adapter.crypto.PasswordHasher;
import dev.detour.adapter.db.AdminUserMapper;
import dev.detour.adapter.db.AdminUserRow;
import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.MyBatisAdminUsers;
import dev.detour.adapter.security.AuthThrottle;
import dev.detour.testkit.MutableClock;
import dev.detour.testkit.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** U-1 first-run admin and sign-in against the real admin_users table. */
class ConsoleUsersIT {
    private static final Pattern PRINTED = Pattern.compile("created console user 'admin' with password (\\S+) ");
    private final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    private final Database database = TestDatabase.database();
    private final ConsoleUsers users = new ConsoleUsers(new MyBatisAdminUsers(database), new PasswordHasher(), clock,
            AuthThrottle.standard("console password", clock));

    @BeforeEach
    void emptyTables() {
        TestDatabase.clean();
    }

    @Test
    void firstRunWithoutAConfiguredPasswordPrintsARandomOneExactlyOnce() {
        List<String> logLines = new ArrayList<>();
        List<String> lines = capturingStdout(() -> logLines.addAll(capturingStderr(() -> {
            users.ensureFirstAdmin(Optional.empty());
            users.ensureFirstAdmin(Optional.empty());
        })));
        List<String> passwordLines = lines.stream().filter(l -> PRINTED.matcher(l).find()).toList();
        assertEquals(1, passwordLines.size(), lines.toString());
        Matcher m = PRINTED.matcher(passwordLines.get(0));
        assertTrue(m.find());
        assertTrue(m.group(1).length() >= 20, "random password is long: " + m.group(1));
        assertTrue(users.signIn("admin", m.group(1), "127.0.0.1").signedIn());
        assertTrue(logLines.stream().noneMatch(l -> l.contains(m.group(1))), "never in the log: " + logLines);
    }

    @Test
    void configuredPasswordIsStoredAsPbkdf2AndNeverPrinted() {
        List<String> lines = capturingStderr(() -> users.ensureFirstAdmin(Optional.of("configured-pass-1")));
        assertTrue(lines.stream().noneMatch(l -> l.contains("configured-pass-1")), lines.toString());
        AdminUserRow row = database.read(s -> s.getMapper(AdminUserMapper.class).selectByUsername("admin")).orElseThrow();
        assertTrue(row.passwordHash().startsWith("pbkdf2-sha256$"));
        assertTrue(PasswordHasher.iterationsOf(row.passwordHash()) >= 210_000);
        assertEquals(Instant.parse("2026-11-29T10:00:00Z"), row.createdAt());
    }

    @Test
    void anExistingUserIsNeverReplacedAtStart() {
        users.ensureFirstAdmin(Optional.of("first-password"));
        users.ensureFirstAdmin(Optional.of("second-password"));
        assertTrue(users.signIn("admin", "first-password", "127.0.0.1").signedIn());
        assertEquals(SignInResult.Outcome.REJECTED, users.signIn("admin", "second-password", "127.0.0.1").outcome());
    }

    @Test
    void successfulSignInRecordsTheTimeAndFailuresAreThrottled() {
        users.ensureFirstAdmin(Optional.of("right-password"));
        clock.advance(java.time.Duration.ofHours(1));
        assertTrue(users.signIn("admin", "right-password", "10.0.0.1").signedIn());
        AdminUserRow row = database.read(s -> s.getMapper(AdminUserMapper.class).selectByUsername("admin")).orElseThrow();
        assertEquals(Instant.parse("2026-11-29T11:00:00Z"), row.lastLoginAt());

        for (int i = 0; i < 5; i++) {
            assertEquals(SignInResult.Outcome.REJECTED, users.signIn("admin", "bad-" + i, "10.0.0.1").outcome());
        }
        SignInResult blocked = users.signIn("admin", "right-password", "10.0.0.1");
        assertEquals(SignInResult.Outcome.THROTTLED, blocked.outcome());
        // X-3 (Security hardening): the fifth failure makes that address wait 1 s (was: every address 15 min)
        assertEquals(java.time.Duration.ofSeconds(1), blocked.retryAfter());
        assertTrue(users.signIn("admin", "right-password", "10.0.0.2").signedIn(), "another address is never refused");
        clock.advance(java.time.Duration.ofSeconds(1));
        assertTrue(users.signIn("admin", "right-password", "10.0.0.1").signedIn());
    }

    private static List<String> capturingStderr(Runnable action) {
        return capturing(System.err, System::setErr, action);
    }

    private static List<String> capturingStdout(Runnable action) {
        return capturing(System.out, System::setOut, action);
    }

    /** The lines {@code action} printed on one standard stream. */
    private static List<String> capturing(PrintStream original, Consumer<PrintStream> install, Runnable action) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        install.accept(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            install.accept(original);
        }
        return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
