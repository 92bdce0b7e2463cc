package dev.detour.adapter.db;

import dev.detour.admin.AuditEntry;
import dev.detour.admin.Changes;
import dev.detour.admin.Groups;
import dev.detour.admin.ModelStates;
import dev.detour.admin.RecoveryActions;
import dev.detour.admin.SmartRules;
import dev.detour.admin.StoredSettings;
import dev.detour.admin.Transactions;
import dev.detour.gateway.PoolStore.StateChange;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.ibatis.session.SqlSession;

/** The admin use cases' unit of work: one MyBatis session, committed at the end of the work. */
public final class MyBatisTransactions implements Transactions {
    private final Database database;

    public MyBatisTransactions(Database database) {
        this.database = database;
    }

    @Override
    public <T> T inTransaction(Function<Changes, T> work) {
        return database.inTransaction(s -> work.apply(new SessionChanges(s)));
    }

    @Override
    public <T> T read(Function<Changes, T> work) {
        return database.read(s -> work.apply(new SessionChanges(s)));
    }

    private record SessionChanges(SqlSession session) implements Changes {
        @Override
        public Groups groups() {
            return new MyBatisGroups(session.getMapper(GroupMapper.class));
        }

        @Override
        public SmartRules smartRules() {
            return new MyBatisSmartRules(session.getMapper(SmartMapper.class));
        }

        @Override
        public ModelStates modelStates() {
            return new MyBatisModelStates(session.getMapper(PoolStateMapper.class));
        }

        @Override
        public StoredSettings settings() {
            SettingsMapper mapper = session.getMapper(SettingsMapper.class);
            return new StoredSettings() {
                @Override
                public Map<String, String> all() {
                    Map<String, String> stored = new LinkedHashMap<>();
                    mapper.selectAll().forEach(row -> stored.put(row.name(), row.value()));
                    return stored;
                }

                @Override
                public void put(String name, String value, Instant updatedAt) {
                    mapper.upsert(new SettingRow(name, value, updatedAt));
                }
            };
        }

        @Override
        public RecoveryActions recovery() {
            return new RecoveryActions() {
                @Override
                public Optional<StateChange> reactivate(long accountId, Instant now) {
                    return MyBatisRecoveryStore.reactivate(session, accountId, now);
                }

                @Override
                public void setProbesPaused(boolean paused, Instant now) {
                    MyBatisRecoveryStore.setProbesPaused(session, paused, now);
                }
            };
        }

        @Override
        public void audit(AuditEntry entry) {
            session.getMapper(AuditMapper.class).insert(entry);
        }

        @Override
        public void bumpPoolRevision() {
            session.getMapper(PoolStateMapper.class).bumpRevision();
        }
    }
}
