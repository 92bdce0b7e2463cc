package dev.detour.admin.port;

import java.time.Instant;
import java.util.Optional;

/** U-1: where console users and their password hashes are kept. */
public interface AdminUsers {
    /** A console user as sign-in needs it. */
    record AdminUser(long id, String username, String passwordHash) {
    }

    boolean anyExists();

    /**
     * Creates the user unless the name is taken; false when it was (another instance may create
     * the first admin at the same moment).
     */
    boolean createIfAbsent(String username, String passwordHash, Instant createdAt);

    Optional<AdminUser> find(String username);

    void recordSignIn(long id, Instant at);
}
