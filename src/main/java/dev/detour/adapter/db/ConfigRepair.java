package dev.detour.adapter.db;

import dev.detour.admin.port.AccountPatch;
import dev.detour.admin.port.StoredAccount;

/**
 * D-4: an update of a {@code config_error} account repairs exactly the unreadable fields it sends.
 * Every unreadable field it does not send keeps its stored column as it is: the stand-in read in its
 * place (pass-through mappings, default policies) is never written back as if the operator chose it,
 * so the account stays {@code config_error} for those (the same promise as R-2 for recovery_json).
 * An unreadable stored status needs nothing sent: any update resets it to ok.
 */
final class ConfigRepair {
    private ConfigRepair() {
    }

    static AccountConfigRow keepUnsentUnreadable(AccountConfigRow u, AccountRow stored, StoredAccount before,
            AccountPatch p) {
        if (before.unreadableFields().isEmpty()) {
            return u;
        }
        return new AccountConfigRow(u.id(), u.name(), u.groupId(),
                keep("platform", p.platform() != null, before) ? stored.platform() : u.platform(),
                keep("base_url", p.baseUrl() != null, before) ? stored.baseUrl() : u.baseUrl(),
                keep("model_mappings", p.mappings() != null, before) ? stored.modelMappingsJson() : u.modelMappingsJson(),
                keep("endpoint_families", p.families() != null, before) ? stored.endpointFamilies() : u.endpointFamilies(),
                keep("protocols", p.protocols() != null, before) ? stored.protocols() : u.protocols(),
                keep("priority", p.priority() != null, before) ? stored.priority() : u.priority(),
                keep("weight", p.weight() != null, before) ? stored.weight() : u.weight(),
                u.enabled(), u.quotaRemaining(),
                keep("max_in_flight", p.maxInFlight() != null, before) ? stored.maxInFlight() : u.maxInFlight(),
                keep("failure_policy", p.failurePolicy() != null, before) ? stored.failurePolicyJson()
                        : u.failurePolicyJson(),
                u.recoveryJson(),
                keep("breaker", p.breaker() != null, before) ? stored.breakerJson() : u.breakerJson(),
                keep("backoff", p.backoff() != null, before) ? stored.backoffJson() : u.backoffJson(),
                keep("anthropic_beta", p.anthropicBeta() != null, before) ? stored.anthropicBetaJson()
                        : u.anthropicBetaJson(),
                u.notes(), u.bridgeReasoning(), u.now());
    }

    private static boolean keep(String field, boolean sent, StoredAccount before) {
        return !sent && before.unreadableFields().contains(field);
    }
}
