package dev.detour.adapter.db;

import dev.detour.admin.port.AdminUsers;
import java.time.Instant;
import java.util.Optional;

/** Console users in {@code admin_users}; each write is its own transaction. */
public final class MyBatisAdminUsers implements AdminUsers {
    private final Database database;

    public MyBatisAdminUsers(Database database) {
        this.database = database;
    }

    @Override
    public boolean anyExists() {
        return database.read(s -> s.getMapper(AdminUserMapper.class).countAll()) > 0;
    }

    @Override
    public boolean createIfAbsent(String username, String passwordHash, Instant createdAt) {
        AdminUserRow row = new AdminUserRow(null, username, passwordHash, createdAt, null);
        return database.inTransaction(s -> s.getMapper(AdminUserMapper.class).insertIgnore(row)) > 0;
    }

    @Override
    public Optional<AdminUser> find(String username) {
        return database.read(s -> s.getMapper(AdminUserMapper.class).selectByUsername(username))
                .map(r -> new AdminUser(r.id(), r.username(), r.passwordHash()));
    }

    @Override
    public void recordSignIn(long id, Instant at) {
        AdminUserRow signedIn = new AdminUserRow(id, null, null, null, at);
        database.inTransaction(s -> s.getMapper(AdminUserMapper.class).updateLastLoginAt(signedIn));
    }
}
