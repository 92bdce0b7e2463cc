package dev.detour.adapter.db;

import dev.detour.admin.AccountGroup;
import dev.detour.admin.AuditEntry;
import dev.detour.admin.BlockRuleEntry;
import dev.detour.admin.Changes;
import dev.detour.admin.Groups;
import dev.detour.admin.ModelStates;
import dev.detour.admin.PriceEntry;
import dev.detour.admin.RecoveryActions;
import dev.detour.admin.SmartRules;
import dev.detour.admin.StoredSettings;
import dev.detour.admin.Transactions;
import dev.detour.core.account.ModelState;
import dev.detour.core.cooldown.RowChange;
import dev.detour.gateway.PoolStore.StateChange;
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

    private record MyBatisGroups(GroupMapper mapper) implements Groups {
        @Override
        public List<AccountGroup> all() {
            return mapper.selectAll();
        }

        @Override
        public AccountGroup byId(long id) {
            return mapper.selectById(id);
        }

        @Override
        public AccountGroup byName(String name) {
            return mapper.selectByName(name);
        }

        @Override
        public long insert(AccountGroup draft) {
            mapper.insert(draft);
            return mapper.selectLastInsertId();
        }

        @Override
        public void update(AccountGroup group) {
            mapper.update(group);
        }

        @Override
        public void delete(long id) {
            mapper.delete(id);
        }

        @Override
        public long accountCount(long groupId) {
            return mapper.countAccounts(groupId);
        }
    }

    private record MyBatisModelStates(PoolStateMapper pool) implements ModelStates {
        @Override
        public boolean lockAccount(long accountId) {
            return pool.lockAccount(accountId) != null;
        }

        @Override
        public List<ModelState> ofAccount(long accountId) {
            return pool.selectModelStates(accountId).stream().map(ModelStateRow::toState).toList();
        }

        @Override
        public List<ModelState> all() {
            return pool.selectAllModelStates().stream().map(ModelStateRow::toState).toList();
        }

        @Override
        public void write(RowChange change) {
            switch (change.action()) {
                case UPSERT -> pool.upsertModelState(ModelStateRow.of(change.row()));
                case DELETE -> pool.deleteModelState(change.row().accountId(), change.row().modelKey());
                case NONE -> { }
            }
        }
    }

    private record MyBatisSmartRules(SmartMapper mapper) implements SmartRules {
        @Override
        public List<PriceEntry> prices() {
            return mapper.selectPrices();
        }

        @Override
        public void upsertPrice(PriceEntry price) {
            mapper.upsertPrice(price);
        }

        @Override
        public void deletePrice(String model) {
            mapper.deletePrice(model);
        }

        @Override
        public List<BlockRuleEntry> blocks() {
            return mapper.selectBlocks();
        }

        @Override
        public BlockRuleEntry block(long id) {
            return mapper.selectBlock(id);
        }

        @Override
        public long insertBlock(BlockRuleEntry rule) {
            mapper.insertBlock(rule);
            return mapper.selectLastInsertId();
        }

        @Override
        public void deleteBlock(long id) {
            mapper.deleteBlock(id);
        }
    }
}
