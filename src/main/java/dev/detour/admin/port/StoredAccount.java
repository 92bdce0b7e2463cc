package dev.detour.admin.port;

import dev.detour.core.account.Account;
import java.time.Instant;
import java.util.List;

/**
 * An account as read from MariaDB: the gateway's {@link Account}, the editable config, and what
 * only the console/API show. {@code recoveryCorrupt}: recovery_json could not be read.
 * {@code unreadableFields} (D-4): API fields whose stored value could not be read; the config holds
 * stand-ins for them, so an update must send each of them again (nothing guessed is ever written back).
 */
public record StoredAccount(
        Account account,
        AccountConfig config,
        String groupName,
        String apiKeyHint,
        boolean recoveryCorrupt,
        List<String> unreadableFields,
        long revision,
        Instant createdAt,
        Instant updatedAt) {
    /** D-4: the unreadable "field" of an account whose group cannot be read; the account's own columns are fine. */
    public static final String GROUP = "group";

    public long id() {
        return account.id();
    }

    public boolean configError() {
        return account.hasConfigError();
    }
}
