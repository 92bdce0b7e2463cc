package dev.detour.admin;

import dev.detour.admin.port.AccountConfig;
import dev.detour.admin.port.AccountPatch;
import dev.detour.admin.port.Accounts;
import dev.detour.admin.port.Changes;
import dev.detour.admin.port.SecretSealer;
import dev.detour.admin.port.StoredAccount;
import dev.detour.admin.port.Transactions;
import dev.detour.core.ValidationException;
import dev.detour.core.secret.SecretMask;
import java.time.Clock;
import java.util.List;

/**
 * Account use cases behind the console and the admin API. Every change is one transaction that
 * also writes the audit row (without secrets), bumps {@code accounts.revision} and the
 * {@code pool_revision} row (O-4).
 *
 * <p>The api key is sealed with the account id as associated data, so create inserts the row
 * with an empty placeholder secret first, then seals under the new id and stores the cipher —
 * both in the same transaction, so no reader ever sees the placeholder.
 */
public final class AccountAdmin {
    private final Transactions transactions;
    private final AccountRepository repository;
    private final SecretSealer secrets;
    private final AuditLog audit;
    private final Clock clock;
    private final AccountMerge merge;

    public AccountAdmin(Transactions transactions, AccountRepository repository, SecretSealer secrets, AuditLog audit,
            Clock clock) {
        this.transactions = transactions;
        this.repository = repository;
        this.secrets = secrets;
        this.audit = audit;
        this.clock = clock;
        this.merge = new AccountMerge();
    }

    public List<StoredAccount> list() {
        return repository.loadAllStored();
    }

    public StoredAccount get(long id) {
        return repository.findStored(id).orElseThrow(() -> notFound(id));
    }

    public StoredAccount create(String actor, AccountPatch patch) {
        String apiKey = AccountRules.apiKey(require(patch.apiKey(), "validation.api_key", "api_key"));
        return Duplicates.guard(() -> transactions.inTransaction(c -> {
            AccountConfig config = merge.forCreate(patch, c.groups());
            Accounts accounts = c.accounts();
            requireFreeName(accounts, config.name(), 0);
            long id = accounts.insert(config, clock.instant());
            storeSecret(accounts, id, apiKey);
            StoredAccount created = accounts.byId(id);
            changed(c, actor, "account.create", id, null, created);
            return created;
        }), "an account");
    }

    /** Any subset of fields; an absent api_key keeps the stored one. */
    public StoredAccount update(String actor, long id, AccountPatch patch) {
        String apiKey = patch.apiKey() == null ? null : AccountRules.apiKey(patch.apiKey());
        return Duplicates.guard(() -> transactions.inTransaction(c -> {
            Accounts accounts = c.accounts();
            StoredAccount before = existing(accounts, id);
            if (patch.recovery() != null && before.recoveryCorrupt()) {
                // a corrupt stored config is never silently overwritten
                throw new ValidationException("validation.recovery_config_json", "recovery",
                        "the stored recovery configuration is corrupt; repair it in the database first");
            }
            AccountConfig after = merge.forUpdate(before.config(), patch, c.groups());
            requireFreeName(accounts, after.name(), id);
            accounts.update(before, after, patch, clock.instant());
            if (apiKey != null) {
                storeSecret(accounts, id, apiKey);
            }
            StoredAccount stored = accounts.byId(id);
            changed(c, actor, "account.update", id, before, stored);
            return stored;
        }), "an account");
    }

    /** Deletes the account; its model rows and bindings go with it (FK cascade). */
    public void delete(String actor, long id) {
        transactions.inTransaction(c -> {
            Accounts accounts = c.accounts();
            StoredAccount before = existing(accounts, id);
            accounts.delete(id);
            changed(c, actor, "account.delete", id, before, null);
            return null;
        });
    }

    private void storeSecret(Accounts accounts, long id, String apiKey) {
        accounts.storeSecret(id, secrets.seal(apiKey, id), SecretMask.hint(apiKey));
    }

    private void changed(Changes c, String actor, String action, long id, StoredAccount before, StoredAccount after) {
        // the config document: api_key_hint only, never the key (U-6)
        audit.record(c, actor, action, "account", id, audit.documents().account(before),
                audit.documents().account(after));
        c.bumpPoolRevision();
    }

    private static StoredAccount existing(Accounts accounts, long id) {
        return NotFoundException.unlessMissing(accounts.byId(id), "account", id);
    }

    private static void requireFreeName(Accounts accounts, String name, long selfId) {
        Long other = accounts.idByName(name);
        if (other != null && other != selfId) {
            throw Duplicates.duplicateName("an account");
        }
    }

    static <T> T require(T value, String code, String field) {
        if (value == null) {
            throw new ValidationException(code, field, field + " is required");
        }
        return value;
    }

    static NotFoundException notFound(long id) {
        return new NotFoundException("account " + id + " does not exist");
    }
}
