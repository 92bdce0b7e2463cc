package dev.detour.admin;

import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.port.SecretSealer;
import dev.detour.admin.port.StoredAccount;
import dev.detour.admin.port.Transactions;
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
    private final Transactions transactions;
    private final SecretSealer secrets;

    public AccountRepository(Transactions transactions, SecretSealer secrets) {
        this.transactions = transactions;
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
        return transactions.read(c -> c.accounts().active());
    }

    public Optional<StoredAccount> findStored(long id) {
        return Optional.ofNullable(transactions.read(c -> c.accounts().byId(id)));
    }

    /** The decrypted upstream key; never log or return it. */
    public String apiKey(long id) {
        String sealed = transactions.read(c -> c.accounts().sealedKey(id));
        if (sealed == null) {
            throw AccountAdmin.notFound(id);
        }
        return secrets.open(sealed, id);
    }

    /** Every group by id. */
    public Map<Long, AccountGroup> groups() {
        Map<Long, AccountGroup> groups = new LinkedHashMap<>();
        transactions.read(c -> c.groups().all()).forEach(g -> groups.put(g.id(), g));
        return groups;
    }
}
