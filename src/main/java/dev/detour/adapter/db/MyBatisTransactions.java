package dev.detour.adapter.db;

import dev.detour.admin.port.Accounts;
import dev.detour.admin.port.AuditEntry;
import dev.detour.admin.port.Changes;
import dev.detour.admin.port.DetourKeys;
import dev.detour.admin.port.Groups;
import dev.detour.admin.port.ModelStates;
import dev.detour.admin.port.NameTakenException;
import dev.detour.admin.port.RecoveryActions;
import dev.detour.admin.port.SecretSealer;
import dev.detour.admin.port.SmartRules;
import dev.detour.admin.port.StoredSettings;
import dev.detour.admin.port.Transactions;
import dev.detour.gateway.port.PoolStore.StateChange;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.ibatis.session.SqlSession;

/** The admin use cases' unit of work: one MyBatis session, committed at the end of the work. */
public final class MyBatisTransactions implements Transactions {
    private final Database database;
    /** Reading an account tells whether its sealed key still opens (D-4). */
    private final SecretSealer secrets;

    public MyBatisTransactions(Database database, SecretSealer secrets) {
        this.database = database;
        this.secrets = secrets;
    }

    @Override
    public <T> T inTransaction(Function<Changes, T> work) {
        try {
            return database.inTransaction(s -> work.apply(new SessionChanges(s, secrets)));
        } catch (RuntimeException e) {
            if (isDuplicateKey(e)) {
                throw new NameTakenException(e);
            }
            throw e;
        }
    }

    @Override
    public <T> T read(Function<Changes, T> work) {
        return database.read(s -> work.apply(new SessionChanges(s, secrets)));
    }

    /** The session of a unit of work this class opened, for a store that joins it (W-2: the import's channels). */
    static SqlSession session(Changes unitOfWork) {
        if (unitOfWork instanceof SessionChanges changes) {
            return changes.session();
        }
        throw new IllegalArgumentException("not a unit of work of this database: " + unitOfWork.getClass());
    }

    /** MariaDB 1062: a unique key raced past the use case's own check. */
    private static boolean isDuplicateKey(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getErrorCode() == 1062) {
                return true;
            }
        }
        return false;
    }

    private record SessionChanges(SqlSession session, SecretSealer secrets) implements Changes {
        @Override
        public Accounts accounts() {
            return new MyBatisAccounts(session.getMapper(AccountMapper.class), secrets);
        }

        @Override
        public Groups groups() {
            return new MyBatisGroups(session.getMapper(GroupMapper.class));
        }

        @Override
        public DetourKeys keys() {
            return new MyBatisDetourKeys(session.getMapper(KeyMapper.class));
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
        public List<AuditEntry> recentAudit(int limit) {
            return session.getMapper(AuditMapper.class).selectRecent(limit);
        }

        @Override
        public void bumpPoolRevision() {
            session.getMapper(PoolStateMapper.class).bumpRevision();
        }
    }
}
