package dev.detour.core.selection;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.keys.KeyPolicy;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * P-9 {@code GET /v1/models}: the client-facing names a key may reach, sorted. Paused or cooling
 * models and accounts in a failure status are not hidden (seed: a pause is a temporary action;
 * the request's own error code is the answer); disabled, archived and out-of-scope accounts are.
 * A pass-through or catch-all account serves any name, so it adds nothing it could enumerate —
 * except a key's explicit allowed-model list, which it then makes reachable.
 */
public final class ModelCatalog {
    private ModelCatalog() {
    }

    /** S-1 step 3: the families an account serves — its own list, else its platform's defaults. */
    public static Set<EndpointFamily> servedFamilies(Account account) {
        return account.families() != null ? account.families() : account.platform().defaultFamilies();
    }

    public static List<String> clientModels(List<Account> accounts, KeyPolicy policy) {
        TreeSet<String> names = new TreeSet<>();
        boolean servesAnyName = false;
        for (Account account : accounts) {
            if (!account.enabled() || account.archived() || !policy.allowsGroup(account.groupId())) {
                continue;
            }
            for (ModelMapping mapping : account.mappings().entries()) {
                if (mapping.isCatchAll()) {
                    servesAnyName = true;
                } else {
                    names.add(mapping.from());
                }
            }
            servesAnyName |= account.mappings().isPassThrough();
        }
        if (servesAnyName) {
            names.addAll(policy.allowedModels());
        }
        names.removeIf(name -> !policy.allowsModel(name));
        return List.copyOf(names);
    }
}
