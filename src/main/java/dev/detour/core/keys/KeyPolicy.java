package dev.detour.core.keys;

import dev.detour.core.ValidationException;
import java.util.Set;

/**
 * The routing part of a Detour key's policy (SPEC §1, K-1, K-2). Enforced today: allowed models
 * ({@link #allowsModel}) and group scope ({@link #allowsGroup}). Carried as data for later
 * issues: the ratio ceiling ({@code maxRatioPpm}, 0 = site default), the strategy (only
 * {@code priority} ranks so far) and max attempts (0 = every eligible account once, P-3).
 */
public record KeyPolicy(
        Set<String> allowedModels,
        GroupScope groups,
        long maxRatioPpm,
        KeyStrategy strategy,
        int maxAttempts) {

    public static final KeyPolicy UNRESTRICTED = new KeyPolicy(Set.of(), GroupScope.ALL, 0, KeyStrategy.PRIORITY, 0);

    public KeyPolicy {
        allowedModels = allowedModels == null ? Set.of() : Set.copyOf(allowedModels);
        groups = groups == null ? GroupScope.ALL : groups;
        strategy = strategy == null ? KeyStrategy.PRIORITY : strategy;
        if (maxRatioPpm < 0) {
            throw new ValidationException("validation.key_policy.max_ratio_ppm", "max_ratio_ppm",
                    "max_ratio_ppm must be 0 (site default) or positive, got " + maxRatioPpm);
        }
        if (maxAttempts < 0) {
            throw new ValidationException("validation.key_policy.max_attempts", "max_attempts",
                    "max_attempts must be 0 (all) or positive, got " + maxAttempts);
        }
    }

    public KeyPolicy withAllowedModels(Set<String> models) {
        return new KeyPolicy(models, groups, maxRatioPpm, strategy, maxAttempts);
    }

    public KeyPolicy withGroups(GroupScope scope) {
        return new KeyPolicy(allowedModels, scope, maxRatioPpm, strategy, maxAttempts);
    }

    /**
     * K-2: checked before routing (403 {@code key.model_not_allowed}). Empty list = all models;
     * a request without a model is not model-restricted. Names match exactly (a {@code [1m]}
     * variant must be listed on its own: it can cost more).
     */
    public boolean allowsModel(String requestedModel) {
        return requestedModel == null || allowedModels.isEmpty() || allowedModels.contains(requestedModel);
    }

    public boolean allowsGroup(long groupId) {
        return groups.allows(groupId);
    }
}
