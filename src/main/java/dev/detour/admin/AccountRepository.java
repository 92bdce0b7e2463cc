package dev.detour.admin;

import dev.detour.adapter.db.AccountMapper;
import dev.detour.adapter.db.AccountRow;
import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.GroupMapper;
import dev.detour.core.account.Account;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Read side of accounts for the gateway, the scheduler and the console: every account-level
 * failure column is mapped into {@code AccountFailureState}; recovery is read forgivingly.
 */
public final class AccountRepository {
    private final Database database;
    private final SecretSealer secrets;

    public AccountRepository(Database database, SecretSealer secrets) {
        this.database = database;
        this.secrets = secrets;
    }

    /** Every non-archived account, id order. */
    public List<Account> loadAll() {
        return loadAllStored().stream().map(StoredAccount::account).toList();
    }

    public Optional<Account> find(long id) {
        return findStored(id).map(StoredAccount::account);
    }

    /** Non-archived accounts with their config, group name, hint and timestamps. */
    public List<StoredAccount> loadAllStored() {
        return database.read(s -> s.getMapper(AccountMapper.class).selectActive()).stream()
                .map(row -> AccountRows.decode(row, secrets)).toList();
    }

    public Optional<StoredAccount> findStored(long id) {
        AccountRow row = database.read(s -> s.getMapper(AccountMapper.class).selectById(id));
        return Optional.ofNullable(row).map(r -> AccountRows.decode(r, secrets));
    }

    /** The decrypted upstream key; never log or return it. */
    public String apiKey(long id) {
        AccountRow row = database.read(s -> s.getMapper(AccountMapper.class).selectById(id));
        if (row == null) {
            throw new NotFoundException("account " + id + " does not exist");
        }
        return secrets.open(row.apiKeyCipher(), id);
    }

    /** Every group by id. */
    public Map<Long, AccountGroup> groups() {
        Map<Long, AccountGroup> groups = new LinkedHashMap<>();
        database.read(s -> s.getMapper(GroupMapper.class).selectAll()).forEach(g -> groups.put(g.id(), g));
        return groups;
    }
}
