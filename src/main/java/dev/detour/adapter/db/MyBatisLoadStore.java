package dev.detour.adapter.db;

import dev.detour.core.selection.GroupView;
import dev.detour.gateway.port.LoadStore;
import dev.detour.gateway.port.SessionBinding;
import java.time.Instant;

/** {@link LoadStore} on MariaDB. A halt write bumps the pool revision so other instances reload (O-4). */
public final class MyBatisLoadStore implements LoadStore {
    private final Database database;

    public MyBatisLoadStore(Database database) {
        this.database = database;
    }

    @Override
    public SessionBinding findBinding(long keyId, String sessionHash, String model) {
        return database.read(s -> s.getMapper(LoadMapper.class).selectBinding(keyId, sessionHash, model));
    }

    @Override
    public void upsertBinding(SessionBinding binding) {
        database.inTransaction(s -> s.getMapper(LoadMapper.class).upsertBinding(binding));
    }

    @Override
    public void deleteBinding(long keyId, String sessionHash, String model, long accountId) {
        database.inTransaction(s -> s.getMapper(LoadMapper.class).deleteBinding(keyId, sessionHash, model, accountId));
    }

    @Override
    public int deleteExpiredBindings(Instant now) {
        return database.inTransaction(s -> s.getMapper(LoadMapper.class).deleteExpiredBindings(now));
    }

    @Override
    public GroupView writeHalt(GroupView group, Instant until, int streak, String reason, Instant now) {
        return database.inTransaction(s -> {
            Instant before = s.getMapper(LoadMapper.class).selectHaltedUntilForUpdate(group.id());
            s.getMapper(LoadMapper.class).updateGroupHalt(group.id(), until, streak, reason, now);
            AlertOutbox.halt(s, group.id(), group.name() == null ? "#" + group.id() : group.name(), before, until,
                    now); // W-1: a halt that begins here is alerted with it
            s.getMapper(PoolStateMapper.class).bumpRevision();
            return group.withHalt(until, streak, reason);
        });
    }
}
