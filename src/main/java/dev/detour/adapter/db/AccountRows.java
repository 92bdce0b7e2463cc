package dev.detour.adapter.db;

import dev.detour.admin.port.AccountConfig;
import dev.detour.admin.AccountRules;
import dev.detour.admin.GroupRules;
import dev.detour.admin.port.SecretSealer;
import dev.detour.admin.port.StoredAccount;
import dev.detour.core.StoredText;
import dev.detour.core.ValidationException;
import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.AnthropicBetaPolicy;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.Platform;
import dev.detour.core.account.RecoveryRule;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * AccountRow ↔ StoredAccount / AccountConfigRow: the one place that maps account columns.
 *
 * <p>D-4: decoding never fails. A column that cannot be read is replaced by a harmless stand-in
 * (pass-through mappings, default policies, status error) and named in the account's config error,
 * so that account alone is {@code config_error} and out of routing while every page, the snapshot
 * and start-up keep working. recovery_json keeps its own rule (R-2: reads as off, writes refused).
 */
public final class AccountRows {
    /** D-4: the reason shown for an upstream key sealed under another master key (lost or replaced). */
    public static final String KEY_DOES_NOT_OPEN = "does not decrypt with the current master key";

    private AccountRows() {
    }

    /** Every column except the upstream key (callers that never use it: the scheduler's state writes). */
    public static StoredAccount decode(AccountRow row) {
        return decode(row, r -> true);
    }

    /** Every column, and whether the upstream key opens with the current master key. */
    public static StoredAccount decode(AccountRow row, SecretSealer secrets) {
        return decode(row, r -> opens(r, secrets));
    }

    private interface KeyCheck {
        boolean opens(AccountRow row);
    }

    private static StoredAccount decode(AccountRow row, KeyCheck keyCheck) {
        Problems problems = new Problems();
        Optional<RecoveryRule> recovery = AccountJsonColumns.readRecovery(row.recoveryJson());
        Platform platform = problems.read("platform", () -> platform(row.platform()), Platform.OPENAI_COMPATIBLE);
        AccountConfig config = new AccountConfig(row.name(), row.groupId(), platform,
                problems.read("base_url", () -> checked(() -> AccountRules.baseUrl(row.baseUrl())), row.baseUrl()),
                problems.read("model_mappings", () -> AccountJsonColumns.readMappings(row.modelMappingsJson()),
                        ModelMappings.PASS_THROUGH),
                problems.read("endpoint_families", () -> AccountJsonColumns.readFamilies(row.endpointFamilies()), null),
                problems.read("protocols", () -> AccountJsonColumns.readProtocols(row.protocols()), null),
                problems.read("priority", () -> range(row.priority(), -1000, 1000, "priority"), row.priority()),
                problems.read("weight", () -> range(row.weight(), 1, 1000, "weight"), 1),
                row.enabled(),
                problems.read("max_in_flight", () -> range(row.maxInFlight(), 0, 10_000, "max_in_flight"), 0),
                row.quotaRemaining(), row.notes(),
                problems.read("failure_policy", () -> AccountJsonColumns.decodeFailurePolicy(row.failurePolicyJson()),
                        FailurePolicy.SEED_DEFAULTS),
                recovery.orElse(RecoveryRule.OFF),
                problems.read("breaker", () -> AccountPolicyColumns.readBreaker(row.breakerJson()), BreakerPolicy.DEFAULTS),
                problems.read("backoff", () -> AccountPolicyColumns.readBackoff(row.backoffJson()), BackoffPolicy.DEFAULTS),
                problems.read("anthropic_beta", () -> AccountPolicyColumns.readAnthropicBeta(row.anthropicBetaJson()),
                        AnthropicBetaPolicy.DEFAULTS),
                !Boolean.FALSE.equals(row.bridgeReasoning())); // B-6: NULL = send
        AccountStatus status = problems.read("status", () -> status(row.status()), AccountStatus.ERROR);
        problems.read("api_key", () -> keyCheck.opens(row) ? null : fail(KEY_DOES_NOT_OPEN), null);
        problems.read(StoredAccount.GROUP, () -> group(row), null);
        Account account = new Account(row.id(), config.name(), config.groupId(), config.platform(), config.baseUrl(),
                config.mappings(), config.effectiveFamilies(), config.priority(), config.weight(), config.enabled(),
                row.archived(), status, config.quotaRemaining(), config.maxInFlight(),
                config.failurePolicy(), config.recovery(), failure(row), row.successCount(), row.errorCount(),
                row.lastUsedAt(), config.breaker(), config.backoff(), problems.reason(), config.effectiveProtocols(),
                config.anthropicBeta(), config.bridgeReasoning());
        return new StoredAccount(account, config, row.groupName(), row.apiKeyHint(), recovery.isEmpty(),
                List.copyOf(problems.byField.keySet()), row.revision(), row.createdAt(), row.updatedAt());
    }

    /** {@code recoveryJson} is passed in so an update that does not touch recovery keeps the column as is. */
    static AccountConfigRow encode(long id, AccountConfig c, String recoveryJson, Instant now) {
        return new AccountConfigRow(id, c.name(), c.groupId(), c.platform().wire(), c.baseUrl(),
                AccountJsonColumns.writeMappings(c.mappings()), AccountJsonColumns.writeFamilies(c.families()),
                AccountJsonColumns.writeFamilies(c.protocols()),
                c.priority(), c.weight(), c.enabled(), c.quotaRemaining(), c.maxInFlight(),
                AccountJsonColumns.writeFailurePolicy(c.failurePolicy()), recoveryJson,
                AccountPolicyColumns.writeBreaker(c.breaker()), AccountPolicyColumns.writeBackoff(c.backoff()),
                AccountPolicyColumns.writeAnthropicBeta(c.anthropicBeta()), c.notes(), c.bridgeReasoning() ? null : false,
                now);
    }

    static AccountFailureState failure(AccountRow r) {
        return new AccountFailureState(r.transientFailureCount(), r.nextRetryAt(), r.cooldownUntil(),
                r.lastFailureKind(), r.lastFailureMessage(), r.lastFailureResponseJson(),
                r.semanticFailureStreakCount(), r.semanticFailureStreakFingerprint(), r.breakerFailureStreak(),
                r.breakerStep(), r.breakerOpenUntil(), r.backoffStreak());
    }

    private static boolean opens(AccountRow row, SecretSealer secrets) {
        try {
            secrets.open(row.apiKeyCipher(), row.id());
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static Void group(AccountRow row) {
        String error = GroupRules.configError(row.groupRatioPpm(), row.groupHaltPolicy());
        return error == null ? null : fail("group " + row.groupName() + " cannot be read (" + error + "); repair the group");
    }

    private static Platform platform(String wire) {
        for (Platform p : Platform.values()) {
            if (p.wire().equals(wire)) {
                return p;
            }
        }
        return fail("unknown platform '" + StoredText.shortText(String.valueOf(wire)) + "'");
    }

    /** An unknown stored status is config_error (D-4); it used to read as error, which automation could clear. */
    private static AccountStatus status(String wire) {
        for (AccountStatus s : AccountStatus.values()) {
            if (s.wire().equals(wire)) {
                return s;
            }
        }
        return fail("unknown status '" + StoredText.shortText(String.valueOf(wire)) + "'");
    }

    private static int range(int value, int min, int max, String field) {
        return checked(() -> AccountRules.range(value, min, max, field));
    }

    private static <T> T checked(Supplier<T> rule) {
        try {
            return rule.get();
        } catch (ValidationException e) {
            throw new CorruptColumnException(e.getMessage());
        }
    }

    private static <T> T fail(String reason) {
        throw new CorruptColumnException(reason);
    }

    /** What could not be read, by API field name, in column order. */
    private static final class Problems {
        private final Map<String, String> byField = new LinkedHashMap<>();

        <T> T read(String field, Supplier<T> decode, T standIn) {
            try {
                return decode.get();
            } catch (CorruptColumnException e) {
                byField.put(field, e.getMessage());
            } catch (RuntimeException e) {
                byField.put(field, "cannot be read"); // never echo an unexpected message: it might quote a secret
            }
            return standIn;
        }

        String reason() {
            return byField.isEmpty() ? null : byField.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                    .collect(Collectors.joining("; "));
        }
    }
}
