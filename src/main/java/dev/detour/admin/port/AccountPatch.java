package dev.detour.admin.port;

import dev.detour.core.account.AnthropicBetaPolicy;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.RecoveryRule;
import java.util.Optional;
import java.util.Set;

/**
 * A create or update request, already type-checked by the adapter: null = field absent (keep the
 * current value, or the default on create). For fields that may be cleared, an empty Optional
 * means "set to null / back to the default". Structured policies arrive validated.
 */
public record AccountPatch(
        String name,
        String groupName,
        Long groupId,
        String platform,
        String baseUrl,
        String apiKey,
        ModelMappings mappings,
        Optional<Set<EndpointFamily>> families,
        Optional<Set<EndpointFamily>> protocols,
        Integer priority,
        Integer weight,
        Boolean enabled,
        Integer maxInFlight,
        Optional<Long> quotaRemaining,
        Optional<String> notes,
        FailurePolicy failurePolicy,
        RecoveryRule recovery,
        BreakerPolicy breaker,
        BackoffPolicy backoff,
        AnthropicBetaPolicy anthropicBeta,
        Boolean bridgeReasoning) {

    /** Without B-6's {@code bridge_reasoning} (kept as it is). */
    public AccountPatch(String name, String groupName, Long groupId, String platform, String baseUrl, String apiKey,
            ModelMappings mappings, Optional<Set<EndpointFamily>> families, Optional<Set<EndpointFamily>> protocols,
            Integer priority, Integer weight, Boolean enabled, Integer maxInFlight, Optional<Long> quotaRemaining,
            Optional<String> notes, FailurePolicy failurePolicy, RecoveryRule recovery, BreakerPolicy breaker,
            BackoffPolicy backoff, AnthropicBetaPolicy anthropicBeta) {
        this(name, groupName, groupId, platform, baseUrl, apiKey, mappings, families, protocols, priority, weight,
                enabled, maxInFlight, quotaRemaining, notes, failurePolicy, recovery, breaker, backoff, anthropicBeta,
                null);
    }

    public boolean changesGroup() {
        return groupName != null || groupId != null;
    }
}
