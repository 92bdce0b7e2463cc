package dev.detour.admin.port;

import dev.detour.core.account.AnthropicBetaPolicy;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.Platform;
import dev.detour.core.account.Protocols;
import dev.detour.core.account.RecoveryRule;
import java.util.Set;

/**
 * What an operator configures on an account (SPEC §1), validated. {@code families} and {@code protocols}
 * null = the platform's defaults (so changing the platform moves them along); the api key lives apart.
 */
public record AccountConfig(
        String name,
        long groupId,
        Platform platform,
        String baseUrl,
        ModelMappings mappings,
        Set<EndpointFamily> families,
        Set<EndpointFamily> protocols,
        int priority,
        int weight,
        boolean enabled,
        int maxInFlight,
        Long quotaRemaining,
        String notes,
        FailurePolicy failurePolicy,
        RecoveryRule recovery,
        BreakerPolicy breaker,
        BackoffPolicy backoff,
        AnthropicBetaPolicy anthropicBeta,
        boolean bridgeReasoning) {

    /** B-6: {@code bridgeReasoning} true, the bridge sends reasoning parameters (the default). */
    public AccountConfig(String name, long groupId, Platform platform, String baseUrl, ModelMappings mappings,
            Set<EndpointFamily> families, Set<EndpointFamily> protocols, int priority, int weight, boolean enabled,
            int maxInFlight, Long quotaRemaining, String notes, FailurePolicy failurePolicy, RecoveryRule recovery,
            BreakerPolicy breaker, BackoffPolicy backoff, AnthropicBetaPolicy anthropicBeta) {
        this(name, groupId, platform, baseUrl, mappings, families, protocols, priority, weight, enabled, maxInFlight,
                quotaRemaining, notes, failurePolicy, recovery, breaker, backoff, anthropicBeta, true);
    }

    /** B-1: the client protocols served natively; {@code protocols} null = {@link Protocols#defaults}. */
    public Set<EndpointFamily> effectiveProtocols() {
        return protocols != null ? protocols : Protocols.defaults(platform, families);
    }

    public Set<EndpointFamily> effectiveFamilies() {
        return families != null ? families : platform.defaultFamilies();
    }
}
