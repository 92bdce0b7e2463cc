package dev.detour.core.keys;

import dev.detour.core.ValidationException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The routing part of a Detour key's policy (SPEC §1, §9, K-1, K-2): allowed models, group scope,
 * the ratio ceiling ({@code maxRatioPpm}, 0 = site default), the S-3 strategy, max attempts
 * (0 = every planned candidate once, P-3), the {@code balanced} weights, the {@code manual} group
 * order, the S-8 affinity premium (percent), the spend limit (micros; null = none) and L-1's limits.
 */
public record KeyPolicy(
        Set<String> allowedModels,
        GroupScope groups,
        long maxRatioPpm,
        KeyStrategy strategy,
        int maxAttempts,
        BalancedWeights balancedWeights,
        List<Long> manualGroupOrder,
        int affinityPremiumPct,
        Long spendLimitMicros,
        KeyLimits limits) {

    public static final int DEFAULT_AFFINITY_PREMIUM_PCT = 10;
    public static final KeyPolicy UNRESTRICTED = new KeyPolicy(Set.of(), GroupScope.ALL, 0, KeyStrategy.PRIORITY, 0);

    public KeyPolicy {
        allowedModels = allowedModels == null ? Set.of() : Set.copyOf(allowedModels);
        groups = groups == null ? GroupScope.ALL : groups;
        strategy = strategy == null ? KeyStrategy.PRIORITY : strategy;
        balancedWeights = balancedWeights == null ? BalancedWeights.DEFAULT : balancedWeights;
        manualGroupOrder = manualGroupOrder == null ? List.of() : List.copyOf(manualGroupOrder);
        limits = limits == null ? KeyLimits.NONE : limits;
        check(maxRatioPpm >= 0, "max_ratio_ppm", "max_ratio_ppm must be 0 (site default) or positive, got " + maxRatioPpm);
        check(maxAttempts >= 0, "max_attempts", "max_attempts must be 0 (all) or positive, got " + maxAttempts);
        check(affinityPremiumPct >= 0 && affinityPremiumPct <= 100, "affinity_premium_pct",
                "affinity_premium_pct must be 0–100, got " + affinityPremiumPct);
        check(spendLimitMicros == null || spendLimitMicros >= 0, "spend_limit",
                "spend_limit must be empty or at least 0, got " + spendLimitMicros);
        check(new HashSet<>(manualGroupOrder).size() == manualGroupOrder.size(), "manual_group_order",
                "manual_group_order lists a group twice: " + manualGroupOrder);
    }

    /** Without L-1 limits. */
    public KeyPolicy(Set<String> allowedModels, GroupScope groups, long maxRatioPpm, KeyStrategy strategy,
            int maxAttempts, BalancedWeights balancedWeights, List<Long> manualGroupOrder, int affinityPremiumPct,
            Long spendLimitMicros) {
        this(allowedModels, groups, maxRatioPpm, strategy, maxAttempts, balancedWeights, manualGroupOrder,
                affinityPremiumPct, spendLimitMicros, KeyLimits.NONE);
    }

    /** The original five fields; the rest take their defaults (45/40/15, no manual order, 10 %, no limit). */
    public KeyPolicy(Set<String> allowedModels, GroupScope groups, long maxRatioPpm, KeyStrategy strategy,
            int maxAttempts) {
        this(allowedModels, groups, maxRatioPpm, strategy, maxAttempts, BalancedWeights.DEFAULT, List.of(),
                DEFAULT_AFFINITY_PREMIUM_PCT, null);
    }

    private static void check(boolean ok, String field, String message) {
        if (!ok) {
            throw new ValidationException("validation.key_policy." + field, field, message);
        }
    }

    public KeyPolicy withAllowedModels(Set<String> models) {
        return new KeyPolicy(models, groups, maxRatioPpm, strategy, maxAttempts, balancedWeights, manualGroupOrder,
                affinityPremiumPct, spendLimitMicros, limits);
    }

    public KeyPolicy withGroups(GroupScope scope) {
        return new KeyPolicy(allowedModels, scope, maxRatioPpm, strategy, maxAttempts, balancedWeights,
                manualGroupOrder, affinityPremiumPct, spendLimitMicros, limits);
    }

    public KeyPolicy withMaxRatioPpm(long ppm) {
        return new KeyPolicy(allowedModels, groups, ppm, strategy, maxAttempts, balancedWeights, manualGroupOrder,
                affinityPremiumPct, spendLimitMicros, limits);
    }

    public KeyPolicy withStrategy(KeyStrategy newStrategy) {
        return new KeyPolicy(allowedModels, groups, maxRatioPpm, newStrategy, maxAttempts, balancedWeights,
                manualGroupOrder, affinityPremiumPct, spendLimitMicros, limits);
    }

    public KeyPolicy withMaxAttempts(int attempts) {
        return new KeyPolicy(allowedModels, groups, maxRatioPpm, strategy, attempts, balancedWeights,
                manualGroupOrder, affinityPremiumPct, spendLimitMicros, limits);
    }

    public KeyPolicy withBalancedWeights(BalancedWeights weights) {
        return new KeyPolicy(allowedModels, groups, maxRatioPpm, strategy, maxAttempts, weights, manualGroupOrder,
                affinityPremiumPct, spendLimitMicros, limits);
    }

    public KeyPolicy withManualGroupOrder(List<Long> order) {
        return new KeyPolicy(allowedModels, groups, maxRatioPpm, strategy, maxAttempts, balancedWeights, order,
                affinityPremiumPct, spendLimitMicros, limits);
    }

    public KeyPolicy withAffinityPremiumPct(int pct) {
        return new KeyPolicy(allowedModels, groups, maxRatioPpm, strategy, maxAttempts, balancedWeights,
                manualGroupOrder, pct, spendLimitMicros, limits);
    }

    public KeyPolicy withSpendLimitMicros(Long limit) {
        return new KeyPolicy(allowedModels, groups, maxRatioPpm, strategy, maxAttempts, balancedWeights,
                manualGroupOrder, affinityPremiumPct, limit, limits);
    }

    public KeyPolicy withLimits(KeyLimits newLimits) {
        return new KeyPolicy(allowedModels, groups, maxRatioPpm, strategy, maxAttempts, balancedWeights,
                manualGroupOrder, affinityPremiumPct, spendLimitMicros, newLimits);
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

    /** K-2 {@code key.spend_limit}: true once the key has spent its limit (never with no limit). */
    public boolean spendLimitReached(long spentMicros) {
        return spendLimitMicros != null && spentMicros >= spendLimitMicros;
    }
}
