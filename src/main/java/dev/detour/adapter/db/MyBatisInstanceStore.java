package dev.detour.adapter.db;

import dev.detour.core.cluster.RegisteredInstance;
import dev.detour.gateway.port.InstanceStore;
import java.time.Instant;
import java.util.List;

/** {@link InstanceStore} on MariaDB: each instance writes only its own row (no conflicts between them on Galera). */
public final class MyBatisInstanceStore implements InstanceStore {
    private final Database database;

    public MyBatisInstanceStore(Database database) {
        this.database = database;
    }

    @Override
    public void beat(RegisteredInstance self) {
        database.inTransaction(s -> s.getMapper(InstanceMapper.class).upsertInstance(self));
    }

    @Override
    public List<RegisteredInstance> all() {
        return database.read(s -> s.getMapper(InstanceMapper.class).selectInstances());
    }

    @Override
    public void remove(String id) {
        database.inTransaction(s -> s.getMapper(InstanceMapper.class).deleteInstance(id));
    }

    @Override
    public void forgetUnseenSince(Instant before) {
        database.inTransaction(s -> s.getMapper(InstanceMapper.class).deleteUnseenSince(before));
    }
}
