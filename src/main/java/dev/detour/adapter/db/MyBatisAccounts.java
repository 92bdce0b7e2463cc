package dev.detour.adapter.db;

import dev.detour.admin.port.AccountConfig;
import dev.detour.admin.port.AccountPatch;
import dev.detour.admin.port.Accounts;
import dev.detour.admin.port.SecretSealer;
import dev.detour.admin.port.StoredAccount;
import java.time.Instant;
import java.util.List;

/** {@link Accounts} in {@code accounts}, inside the caller's session; {@link AccountRows} maps the columns. */
record MyBatisAccounts(AccountMapper mapper, SecretSealer secrets) implements Accounts {
    @Override
    public List<StoredAccount> active() {
        return mapper.selectActive().stream().map(row -> AccountRows.decode(row, secrets)).toList();
    }

    @Override
    public StoredAccount byId(long id) {
        AccountRow row = mapper.selectById(id);
        return row == null ? null : AccountRows.decode(row, secrets);
    }

    @Override
    public Long idByName(String name) {
        return mapper.selectIdByName(name);
    }

    @Override
    public long insert(AccountConfig config, Instant now) {
        mapper.insert(AccountRows.encode(0, config, AccountJsonColumns.writeRecovery(config.recovery()), now));
        return mapper.selectLastInsertId();
    }

    @Override
    public void update(StoredAccount before, AccountConfig after, AccountPatch sent, Instant now) {
        AccountRow row = mapper.selectById(before.id());
        String recoveryJson = sent.recovery() != null ? AccountJsonColumns.writeRecovery(after.recovery())
                : row.recoveryJson();
        mapper.updateConfig(ConfigRepair.keepUnsentUnreadable(
                AccountRows.encode(before.id(), after, recoveryJson, now), row, before, sent));
        if (before.unreadableFields().contains("status")) {
            mapper.updateUnreadableStatus(before.id()); // D-4: the operator's repair; nothing else could read it
        }
    }

    @Override
    public void storeSecret(long id, String sealedKey, String keyHint) {
        mapper.updateSecret(new AccountSecretRow(id, sealedKey, keyHint));
    }

    @Override
    public String sealedKey(long id) {
        AccountRow row = mapper.selectById(id);
        return row == null ? null : row.apiKeyCipher();
    }

    @Override
    public void delete(long id) {
        mapper.delete(id);
    }
}
