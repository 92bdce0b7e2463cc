package dev.detour.admin;

import dev.detour.adapter.db.AccountConfigRow;
import dev.detour.adapter.db.AccountJsonColumns;
import dev.detour.adapter.db.AccountPolicyColumns;
import dev.detour.adapter.db.AccountRow;
import dev.detour.core.ValidationException;
import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.Platform;
import dev.detour.core.account.RecoveryRule;
import java.time.Instant;
import java.util.Optional;

/** AccountRow ↔ StoredAccount / AccountConfigRow: the one place that maps account columns. */
public final class AccountRows {
    private AccountRows() {
    }

    public static StoredAccount decode(AccountRow row) {
        Optional<RecoveryRule> recovery = AccountJsonColumns.readRecovery(row.recoveryJson());
        AccountConfig config = new AccountConfig(row.name(), row.groupId(), Platform.fromWire(row.platform()),
                row.baseUrl(), AccountJsonColumns.readMappings(row.modelMappingsJson()),
                AccountJsonColumns.readFamilies(row.endpointFamilies()), row.priority(), row.weight(), row.enabled(),
                row.maxInFlight(), row.quotaRemaining(), row.notes(),
                AccountJsonColumns.readFailurePolicy(row.failurePolicyJson()), recovery.orElse(RecoveryRule.OFF),
                AccountPolicyColumns.readBreaker(row.breakerJson()), AccountPolicyColumns.readBackoff(row.backoffJson()));
        Account account = new Account(row.id(), config.name(), config.groupId(), config.platform(), config.baseUrl(),
                config.mappings(), config.effectiveFamilies(), config.priority(), config.weight(), config.enabled(),
                row.archived(), status(row.status()), config.quotaRemaining(), config.maxInFlight(),
                config.failurePolicy(), config.recovery(), failure(row), row.successCount(), row.errorCount(),
                row.lastUsedAt(), config.breaker(), config.backoff());
        return new StoredAccount(account, config, row.groupName(), row.apiKeyHint(), recovery.isEmpty(),
                row.revision(), row.createdAt(), row.updatedAt());
    }

    /** {@code recoveryJson} is passed in so an update that does not touch recovery keeps the column as is. */
    static AccountConfigRow encode(long id, AccountConfig c, String recoveryJson, Instant now) {
        return new AccountConfigRow(id, c.name(), c.groupId(), c.platform().wire(), c.baseUrl(),
                AccountJsonColumns.writeMappings(c.mappings()), AccountJsonColumns.writeFamilies(c.families()),
                c.priority(), c.weight(), c.enabled(), c.quotaRemaining(), c.maxInFlight(),
                AccountJsonColumns.writeFailurePolicy(c.failurePolicy()), recoveryJson,
                AccountPolicyColumns.writeBreaker(c.breaker()), AccountPolicyColumns.writeBackoff(c.backoff()),
                c.notes(), now);
    }

    static AccountFailureState failure(AccountRow r) {
        return new AccountFailureState(r.transientFailureCount(), r.nextRetryAt(), r.cooldownUntil(),
                r.lastFailureKind(), r.lastFailureMessage(), r.lastFailureResponseJson(),
                r.semanticFailureStreakCount(), r.semanticFailureStreakFingerprint(), r.breakerFailureStreak(),
                r.breakerStep(), r.breakerOpenUntil(), r.backoffStreak());
    }

    /** An unknown stored status is treated as error: never route to something we cannot read. */
    private static AccountStatus status(String wire) {
        try {
            return AccountStatus.fromWire(wire);
        } catch (ValidationException e) {
            return AccountStatus.ERROR;
        }
    }
}
