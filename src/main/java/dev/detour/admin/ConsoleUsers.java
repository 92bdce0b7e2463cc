package dev.detour.admin;

import dev.detour.admin.port.AdminUsers;
import dev.detour.admin.port.PasswordCheck;
import dev.detour.admin.port.SignInThrottle;
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

    private final AdminUsers users;
    private final PasswordCheck hasher;
    private final Clock clock;
    private final SignInThrottle throttle;
    private final SecureRandom random = new SecureRandom();
    private volatile String unknownUserHash;

    public ConsoleUsers(AdminUsers users, PasswordCheck hasher, Clock clock, SignInThrottle throttle) {
        this.users = users;
        this.hasher = hasher;
        this.clock = clock;
        this.throttle = throttle;
    }

    /**
     * U-1 first run: when no console user exists, creates {@code admin} with the configured
     * password, or with a random one printed once on standard output (never logged). Safe to call at every start.
     */
    public void ensureFirstAdmin(Optional<String> configuredPassword) {
        if (users.anyExists()) {
            return;
        }
        String password = configuredPassword.orElseGet(this::randomPassword);
        if (!users.createIfAbsent(FIRST_ADMIN, hasher.hash(password), clock.instant())) {
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
        Optional<AdminUsers.AdminUser> user = users.find(username.trim());
        // Unknown names cost one PBKDF2 run too, so timing does not reveal which names exist.
        boolean ok = hasher.verify(password, user.map(AdminUsers.AdminUser::passwordHash).orElseGet(this::unknownUserHash))
                && user.isPresent();
        if (!ok) {
            throttle.failed(clientIp, username);
            return SignInResult.rejected();
        }
        throttle.succeeded(clientIp, username);
        users.recordSignIn(user.get().id(), clock.instant());
        return SignInResult.signedIn(user.get().username());
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
