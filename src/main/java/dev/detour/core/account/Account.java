package dev.detour.core.account;

import java.time.Instant;
import java.util.Set;

/**
 * An upstream account as the gateway sees it: configuration, status and account-level failure
 * state. The secret is not here: the gateway asks for it by id when it builds a request.
 * {@code configError} (D-4): why part of the stored row could not be read, or null; such an
 * account is shown as {@code config_error} and never routed to. The stored status stays as it is.
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
        BackoffPolicy backoff,
        String configError,
        Set<EndpointFamily> protocols,
        AnthropicBetaPolicy anthropicBeta,
        boolean bridgeReasoning) {

    /** The status shown for a config error (D-4); never stored, so not an {@link AccountStatus}. */
    public static final String CONFIG_ERROR = "config_error";

    public Account {
        breaker = breaker == null ? BreakerPolicy.DEFAULTS : breaker; // C-6: off by default
        backoff = backoff == null ? BackoffPolicy.DEFAULTS : backoff;
        // B-1: the client protocols served natively; null = the platform's (the stored config keeps the null)
        protocols = protocols == null && platform != null ? platform.defaultProtocols() : protocols;
        anthropicBeta = anthropicBeta == null ? AnthropicBetaPolicy.DEFAULTS : anthropicBeta; // B-5: pass
    }

    /**
     * {@code bridgeReasoning} (B-6): the bridge sends reasoning parameters to this account; false for a relay
     * that refuses them (translated requests then leave them out). This form: true.
     */
    public Account(long id, String name, long groupId, Platform platform, String baseUrl, ModelMappings mappings,
            Set<EndpointFamily> families, int priority, int weight, boolean enabled, boolean archived,
            AccountStatus status, Long quotaRemaining, int maxInFlight, FailurePolicy failurePolicy,
            RecoveryRule recovery, AccountFailureState failure, long successCount, long errorCount,
            Instant lastUsedAt, BreakerPolicy breaker, BackoffPolicy backoff, String configError,
            Set<EndpointFamily> protocols, AnthropicBetaPolicy anthropicBeta) {
        this(id, name, groupId, platform, baseUrl, mappings, families, priority, weight, enabled, archived, status,
                quotaRemaining, maxInFlight, failurePolicy, recovery, failure, successCount, errorCount, lastUsedAt,
                breaker, backoff, configError, protocols, anthropicBeta, true);
    }

    /** The platform's native protocols (B-1) and no B-5 beta policy: the client's {@code anthropic-beta} passes as sent. */
    public Account(long id, String name, long groupId, Platform platform, String baseUrl, ModelMappings mappings,
            Set<EndpointFamily> families, int priority, int weight, boolean enabled, boolean archived,
            AccountStatus status, Long quotaRemaining, int maxInFlight, FailurePolicy failurePolicy,
            RecoveryRule recovery, AccountFailureState failure, long successCount, long errorCount,
            Instant lastUsedAt, BreakerPolicy breaker, BackoffPolicy backoff, String configError) {
        this(id, name, groupId, platform, baseUrl, mappings, families, priority, weight, enabled, archived, status,
                quotaRemaining, maxInFlight, failurePolicy, recovery, failure, successCount, errorCount, lastUsedAt,
                breaker, backoff, configError, null, AnthropicBetaPolicy.DEFAULTS);
    }

    public Account(long id, String name, long groupId, Platform platform, String baseUrl, ModelMappings mappings,
            Set<EndpointFamily> families, int priority, int weight, boolean enabled, boolean archived,
            AccountStatus status, Long quotaRemaining, int maxInFlight, FailurePolicy failurePolicy,
            RecoveryRule recovery, AccountFailureState failure, long successCount, long errorCount,
            Instant lastUsedAt, BreakerPolicy breaker, BackoffPolicy backoff) {
        this(id, name, groupId, platform, baseUrl, mappings, families, priority, weight, enabled, archived, status,
                quotaRemaining, maxInFlight, failurePolicy, recovery, failure, successCount, errorCount, lastUsedAt,
                breaker, backoff, null);
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
                errorCount, lastUsedAt, breaker, backoff, configError, protocols, anthropicBeta, bridgeReasoning);
    }

    public Account withFailure(AccountFailureState newFailure) {
        return new Account(id, name, groupId, platform, baseUrl, mappings, families, priority, weight, enabled,
                archived, status, quotaRemaining, maxInFlight, failurePolicy, recovery, newFailure, successCount,
                errorCount, lastUsedAt, breaker, backoff, configError, protocols, anthropicBeta, bridgeReasoning);
    }

    /** D-4: the same account marked unreadable (reason without secrets), so selection leaves it out. */
    public Account withConfigError(String reason) {
        return new Account(id, name, groupId, platform, baseUrl, mappings, families, priority, weight, enabled,
                archived, status, quotaRemaining, maxInFlight, failurePolicy, recovery, failure, successCount,
                errorCount, lastUsedAt, breaker, backoff, reason, protocols, anthropicBeta, bridgeReasoning);
    }

    public boolean hasConfigError() {
        return configError != null;
    }

    /** The status as pages and the API show it: {@code config_error} over the stored one. */
    public String shownStatus() {
        return hasConfigError() ? CONFIG_ERROR : status.wire();
    }
}
