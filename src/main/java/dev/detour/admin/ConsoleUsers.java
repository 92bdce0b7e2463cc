package dev.detour.admin;

import dev.detour.adapter.crypto.PasswordHasher;
import dev.detour.adapter.db.AdminUserMapper;
import dev.detour.adapter.db.AdminUserRow;
import dev.detour.adapter.db.Database;
import dev.detour.adapter.security.AuthThrottle;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** U-1 console users: the first-run admin and password sign-in with a failure throttle. */
public final class ConsoleUsers {
    public static final String FIRST_ADMIN = "admin";
    private static final Logger log = LoggerFactory.getLogger(ConsoleUsers.class);
    private static final int MAX_FIELD_LENGTH = 256;

    private final Database database;
    private final PasswordHasher hasher;
    private final Clock clock;
    private final AuthThrottle throttle;
    private final SecureRandom random = new SecureRandom();
    private volatile String unknownUserHash;

    public ConsoleUsers(Database database, PasswordHasher hasher, Clock clock, AuthThrottle throttle) {
        this.database = database;
        this.hasher = hasher;
        this.clock = clock;
        this.throttle = throttle;
    }

    /**
     * U-1 first run: when no console user exists, creates {@code admin} with the configured
     * password, or with a random one printed once on standard output (never logged). Safe to call at every start.
     */
    public void ensureFirstAdmin(Optional<String> configuredPassword) {
        if (database.read(s -> s.getMapper(AdminUserMapper.class).countAll()) > 0) {
            return;
        }
        String password = configuredPassword.orElseGet(this::randomPassword);
        AdminUserRow row = new AdminUserRow(null, FIRST_ADMIN, hasher.hash(password), clock.instant(), null);
        int inserted = database.inTransaction(s -> s.getMapper(AdminUserMapper.class).insertIgnore(row));
        if (inserted == 0) {
            return; // another instance created it first; its log shows the password
        }
        if (configuredPassword.isPresent()) {
            log.info("First run: created console user 'admin' with the password from DETOUR_ADMIN_PASSWORD");
        } else {
            log.warn("First run: created console user 'admin'; its password is printed on standard output once");
            FirstRunNotice.show("First run: created console user 'admin' with password " + password + " (shown only this once)");
        }
    }

    /**
     * a try from an address (and name) with recent failures may have to wait; it is then
     * refused before the password is looked at, so a throttled answer says nothing about it. An
     * address with no failures always gets its password checked, whatever others tried.
     */
    public SignInResult signIn(String username, String password, String clientIp) {
        Duration wait = throttle.waitFor(clientIp, username);
        if (!wait.isZero()) {
            return SignInResult.throttled(wait);
        }
        if (isBlank(username) || isBlank(password)
                || username.length() > MAX_FIELD_LENGTH || password.length() > MAX_FIELD_LENGTH) {
            throttle.failed(clientIp, username);
            return SignInResult.rejected();
        }
        Optional<AdminUserRow> user = database.read(s -> s.getMapper(AdminUserMapper.class).selectByUsername(username.trim()));
        // Unknown names cost one PBKDF2 run too, so timing does not reveal which names exist.
        boolean ok = hasher.verify(password, user.map(AdminUserRow::passwordHash).orElseGet(this::unknownUserHash))
                && user.isPresent();
        if (!ok) {
            throttle.failed(clientIp, username);
            return SignInResult.rejected();
        }
        throttle.succeeded(clientIp, username);
        AdminUserRow signedIn = new AdminUserRow(user.get().id(), user.get().username(), null, null, clock.instant());
        database.inTransaction(s -> s.getMapper(AdminUserMapper.class).updateLastLoginAt(signedIn));
        return SignInResult.signedIn(signedIn.username());
    }

    private String unknownUserHash() {
        if (unknownUserHash == null) {
            unknownUserHash = hasher.hash(randomPassword());
        }
        return unknownUserHash;
    }

    private String randomPassword() {
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }
}
