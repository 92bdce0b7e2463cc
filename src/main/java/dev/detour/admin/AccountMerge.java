package dev.detour.admin;

import dev.detour.admin.port.AccountConfig;
import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.port.AccountPatch;
import dev.detour.admin.port.Groups;
import dev.detour.core.account.AnthropicBetaPolicy;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import dev.detour.core.ValidationException;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.Platform;
import dev.detour.core.account.RecoveryRule;

/** Applies an {@link AccountPatch} to defaults (create) or the stored config (update), validating every field. */
final class AccountMerge {
    private static final AccountConfig DEFAULTS = new AccountConfig(null, 0, null, null, ModelMappings.PASS_THROUGH,
            null, null, 0, 10, true, 0, null, null, FailurePolicy.DEFAULTS, RecoveryRule.OFF, BreakerPolicy.DEFAULTS,
            BackoffPolicy.DEFAULTS, AnthropicBetaPolicy.DEFAULTS);

    AccountConfig forCreate(AccountPatch p, Groups groups) {
        AccountAdmin.require(p.name(), "validation.name", "name");
        AccountAdmin.require(p.platform(), "validation.platform", "platform");
        AccountAdmin.require(p.baseUrl(), "validation.base_url", "base_url");
        if (!p.changesGroup()) {
            throw new ValidationException("validation.group", "group", "group (name) or group_id is required");
        }
        return forUpdate(DEFAULTS, p, groups);
    }

    AccountConfig forUpdate(AccountConfig c, AccountPatch p, Groups groups) {
        Platform platform = p.platform() != null ? Platform.fromWire(p.platform()) : c.platform();
        var families = p.families() != null ? p.families().orElse(null) : c.families();
        AccountRules.families(families, platform);
        var protocols = p.protocols() != null ? p.protocols().orElse(null) : c.protocols();
        AccountRules.protocols(protocols, platform);
        return new AccountConfig(
                p.name() != null ? AccountRules.name(p.name()) : c.name(),
                p.changesGroup() ? groupId(p, groups) : c.groupId(),
                platform,
                p.baseUrl() != null ? AccountRules.baseUrl(p.baseUrl()) : c.baseUrl(),
                p.mappings() != null ? p.mappings() : c.mappings(),
                families,
                protocols,
                p.priority() != null ? AccountRules.range(p.priority(), -1000, 1000, "priority") : c.priority(),
                p.weight() != null ? AccountRules.range(p.weight(), 1, 1000, "weight") : c.weight(),
                p.enabled() != null ? p.enabled() : c.enabled(),
                p.maxInFlight() != null ? AccountRules.range(p.maxInFlight(), 0, 10_000, "max_in_flight") : c.maxInFlight(),
                p.quotaRemaining() != null ? AccountRules.quotaRemaining(p.quotaRemaining().orElse(null)) : c.quotaRemaining(),
                p.notes() != null ? AccountRules.notes(p.notes().orElse(null)) : c.notes(),
                p.failurePolicy() != null ? p.failurePolicy() : c.failurePolicy(),
                p.recovery() != null ? p.recovery() : c.recovery(),
                p.breaker() != null ? p.breaker() : c.breaker(),
                p.backoff() != null ? p.backoff() : c.backoff(),
                p.anthropicBeta() != null ? p.anthropicBeta() : c.anthropicBeta(),
                p.bridgeReasoning() != null ? p.bridgeReasoning() : c.bridgeReasoning());
    }

    /** By name ({@code group}) or id ({@code group_id}); when both are given they must agree. */
    private static long groupId(AccountPatch p, Groups groups) {
        AccountGroup byName = p.groupName() != null ? groups.byName(p.groupName()) : null;
        AccountGroup byId = p.groupId() != null ? groups.byId(p.groupId()) : null;
        AccountGroup group = byName != null ? byName : byId;
        boolean missing = (p.groupName() != null && byName == null) || (p.groupId() != null && byId == null);
        if (missing || group == null || (byName != null && byId != null && byName.id() != byId.id())) {
            throw new ValidationException("validation.group", "group", "unknown group");
        }
        return group.id();
    }
}
