package dev.detour.core.account;

import java.time.Instant;
import java.util.Set;

/**
 * An upstream account as the gateway sees it: configuration, status and account-level failure
 * state. The secret is not here: the gateway asks for it by id when it builds a request.
 */
public record Account(
        long id,
        String name,
        long groupId,
        Platform platform,
        String baseUrl,
        ModelMappings mappings,
        Set<EndpointFamily> families,
        int priority,
        int weight,
        boolean enabled,
        boolean archived,
        AccountStatus status,
        Long quotaRemaining,
        int maxInFlight,
        FailurePolicy failurePolicy,
        RecoveryRule recovery,
        AccountFailureState failure,
        long successCount,
        long errorCount,
        Instant lastUsedAt,
        BreakerPolicy breaker,
        BackoffPolicy backoff) {

    public Account {
        breaker = breaker == null ? BreakerPolicy.DEFAULTS : breaker; // C-6: off by default
        backoff = backoff == null ? BackoffPolicy.DEFAULTS : backoff;
    }

    /** The original fields: breaker off, fixed backoff (C-6 defaults). */
    public Account(long id, String name, long groupId, Platform platform, String baseUrl, ModelMappings mappings,
            Set<EndpointFamily> families, int priority, int weight, boolean enabled, boolean archived,
            AccountStatus status, Long quotaRemaining, int maxInFlight, FailurePolicy failurePolicy,
            RecoveryRule recovery, AccountFailureState failure, long successCount, long errorCount,
            Instant lastUsedAt) {
        this(id, name, groupId, platform, baseUrl, mappings, families, priority, weight, enabled, archived, status,
                quotaRemaining, maxInFlight, failurePolicy, recovery, failure, successCount, errorCount, lastUsedAt,
                BreakerPolicy.DEFAULTS, BackoffPolicy.DEFAULTS);
    }

    public Account withStatus(AccountStatus newStatus) {
        return new Account(id, name, groupId, platform, baseUrl, mappings, families, priority, weight, enabled,
                archived, newStatus, quotaRemaining, maxInFlight, failurePolicy, recovery, failure, successCount,
                errorCount, lastUsedAt, breaker, backoff);
    }

    public Account withFailure(AccountFailureState newFailure) {
        return new Account(id, name, groupId, platform, baseUrl, mappings, families, priority, weight, enabled,
                archived, status, quotaRemaining, maxInFlight, failurePolicy, recovery, newFailure, successCount,
                errorCount, lastUsedAt, breaker, backoff);
    }
}
