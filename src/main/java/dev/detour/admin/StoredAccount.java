package dev.detour.admin;

import dev.detour.core.account.Account;
import java.time.Instant;

/**
 * An account as read from MariaDB: the gateway's {@link Account}, the editable config, and what
 * only the console/API show. {@code recoveryCorrupt}: recovery_json could not be read.
 */
public record StoredAccount(
        Account account,
        AccountConfig config,
        String groupName,
        String apiKeyHint,
        boolean recoveryCorrupt,
        long revision,
        Instant createdAt,
        Instant updatedAt) {

    public long id() {
        return account.id();
    }
}
