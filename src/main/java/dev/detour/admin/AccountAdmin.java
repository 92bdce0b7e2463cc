package dev.detour.admin;

import dev.detour.adapter.db.AccountConfigRow;
import dev.detour.adapter.db.AccountJsonColumns;
import dev.detour.adapter.db.AccountMapper;
import dev.detour.adapter.db.AccountRow;
import dev.detour.adapter.db.AccountSecretRow;
import dev.detour.adapter.db.Database;
import dev.detour.core.ValidationException;
import dev.detour.core.secret.SecretMask;
import java.time.Clock;
import java.util.List;
import org.apache.ibatis.session.SqlSession;

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
    private final Database database;
    private final AccountRepository repository;
    private final SecretSealer secrets;
    private final AuditLog audit;
    private final Clock clock;
    private final AccountMerge merge;

    public AccountAdmin(Database database, AccountRepository repository, SecretSealer secrets, AuditLog audit, Clock clock) {
        this.database = database;
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
        return Duplicates.guard(() -> database.inTransaction(s -> {
            AccountConfig config = merge.forCreate(patch, s);
            AccountMapper accounts = s.getMapper(AccountMapper.class);
            requireFreeName(accounts, config.name(), 0);
            accounts.insert(AccountRows.encode(0, config, AccountJsonColumns.writeRecovery(config.recovery()), clock.instant()));
            long id = accounts.selectLastInsertId();
            storeSecret(accounts, id, apiKey);
            StoredAccount created = AccountRows.decode(accounts.selectById(id), secrets);
            changed(s, actor, "account.create", id, null, created);
            return created;
        }), "an account");
    }

    /** Any subset of fields; an absent api_key keeps the stored one. */
    public StoredAccount update(String actor, long id, AccountPatch patch) {
        String apiKey = patch.apiKey() == null ? null : AccountRules.apiKey(patch.apiKey());
        return Duplicates.guard(() -> database.inTransaction(s -> {
            AccountMapper accounts = s.getMapper(AccountMapper.class);
            AccountRow row = accounts.selectById(id);
            if (row == null) {
                throw notFound(id);
            }
            StoredAccount before = AccountRows.decode(row, secrets);
            if (patch.recovery() != null && before.recoveryCorrupt()) {
                // a corrupt stored config is never silently overwritten
                throw new ValidationException("validation.recovery_config_json", "recovery",
                        "the stored recovery configuration is corrupt; repair it in the database first");
            }
            AccountConfig after = merge.forUpdate(before.config(), patch, s);
            requireFreeName(accounts, after.name(), id);
            String recoveryJson = patch.recovery() != null ? AccountJsonColumns.writeRecovery(after.recovery()) : row.recoveryJson();
            AccountConfigRow update = ConfigRepair.keepUnsentUnreadable(
                    AccountRows.encode(id, after, recoveryJson, clock.instant()), row, before, patch);
            accounts.updateConfig(update);
            if (apiKey != null) {
                storeSecret(accounts, id, apiKey);
            }
            if (before.unreadableFields().contains("status")) {
                accounts.updateUnreadableStatus(id); // D-4: the operator's repair; nothing else could read it
            }
            StoredAccount stored = AccountRows.decode(accounts.selectById(id), secrets);
            changed(s, actor, "account.update", id, before, stored);
            return stored;
        }), "an account");
    }

    /** Deletes the account; its model rows and bindings go with it (FK cascade). */
    public void delete(String actor, long id) {
        database.inTransaction(s -> {
            AccountMapper accounts = s.getMapper(AccountMapper.class);
            AccountRow row = accounts.selectById(id);
            if (row == null) {
                throw notFound(id);
            }
            accounts.delete(id);
            changed(s, actor, "account.delete", id, AccountRows.decode(row, secrets), null);
            return null;
        });
    }

    private void storeSecret(AccountMapper accounts, long id, String apiKey) {
        accounts.updateSecret(new AccountSecretRow(id, secrets.seal(apiKey, id), SecretMask.hint(apiKey)));
    }

    private void changed(SqlSession s, String actor, String action, long id, StoredAccount before, StoredAccount after) {
        audit.record(s, actor, action, "account", id, auditJson(before), auditJson(after));
        s.getMapper(AccountMapper.class).bumpPoolRevision();
    }

    /** The config document: api_key_hint only, never the key (U-6). */
    private static String auditJson(StoredAccount account) {
        return account == null ? null : Documents.account(account).toString();
    }

    private static void requireFreeName(AccountMapper accounts, String name, long selfId) {
        Long other = accounts.selectIdByName(name);
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

    private static NotFoundException notFound(long id) {
        return new NotFoundException("account " + id + " does not exist");
    }
}
