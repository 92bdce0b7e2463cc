package dev.detour.core.selection;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.keys.KeyPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * P-9 {@code GET /v1/models}: the client-facing names a key may reach, sorted. Paused or cooling
 * models and accounts in a failure status are not hidden (seed: a pause is a temporary action;
 * the request's own error code is the answer); disabled, archived and out-of-scope accounts are.
 * A pass-through, catch-all or prefix-pattern mapping serves names it cannot enumerate, so only
 * concrete ids are listed (P-12): every exact {@code from}; a pattern's fixed {@code to} when the
 * pattern itself takes that name (e.g. {@code claude-sonnet-*} → {@code claude-sonnet-4-5} lists
 * {@code claude-sonnet-4-5}); and a key's explicit allowed-model names that such a mapping takes.
 * A pattern is never listed as a model id: no client could send it as one.
 */
public final class ModelCatalog {
    private ModelCatalog() {
    }

    /** S-1 step 3: the families an account serves — its own list, else its platform's defaults. */
    public static Set<EndpointFamily> servedFamilies(Account account) {
        return account.families() != null ? account.families() : account.platform().defaultFamilies();
    }

    /**
     * B-1 / B-5: whether an account can answer a caller of this protocol, natively or through a bridge — the
     * one place the models endpoints ask, and the same test selection makes: the account serves one of the
     * caller's endpoint families. B-1 made every platform serve the three conversational families by default
     * (its own protocols natively, the others through the bridge), so a default relay lists its models to an
     * Anthropic caller; an account whose operator narrowed its families is asked only for what they name.
     */
    public static boolean servesCaller(Account account, EndpointFamily.Protocol caller) {
        for (EndpointFamily family : servedFamilies(account)) {
            if (family.protocol() == caller && family != EndpointFamily.MODELS) {
                return true;
            }
        }
        return false;
    }

    /** P-12 / B-5 {@code GET /v1/models}: the names a caller of this protocol can reach, bridged ones included. */
    public static List<String> clientModels(List<Account> accounts, KeyPolicy policy, EndpointFamily.Protocol caller) {
        return clientModels(servingCaller(accounts, caller), policy);
    }

    /** P-12 / B-5 {@code GET /v1/models/{id}} for a caller of this protocol. */
    public static boolean serves(List<Account> accounts, KeyPolicy policy, String model, EndpointFamily.Protocol caller) {
        return serves(servingCaller(accounts, caller), policy, model);
    }

    private static List<Account> servingCaller(List<Account> accounts, EndpointFamily.Protocol caller) {
        return accounts.stream().filter(a -> servesCaller(a, caller)).toList();
    }

    /** The names a key may reach over every protocol (its /my page and route states). */
    public static List<String> clientModels(List<Account> accounts, KeyPolicy policy) {
        TreeSet<String> names = new TreeSet<>();
        List<Account> reachable = reachableAccounts(accounts, policy);
        for (Account account : reachable) {
            for (ModelMapping mapping : account.mappings().entries()) {
                if (!mapping.isPattern()) {
                    names.add(mapping.from());
                } else if (!mapping.passesNameThrough() && !mapping.isCatchAll() && mapping.matches(mapping.to())) {
                    names.add(mapping.to());
                }
            }
        }
        for (String allowed : policy.allowedModels()) {
            if (servedByAny(reachable, allowed)) {
                names.add(allowed);
            }
        }
        names.removeIf(name -> !policy.allowsModel(name));
        return List.copyOf(names);
    }

    /**
     * P-12 {@code GET /v1/models/{id}}: true when the key may use this name and an account in its scope
     * would take it (exact, pattern, catch-all or pass-through) — the same test selection applies,
     * so a 404 here means a request for it would be refused as unmapped.
     */
    public static boolean serves(List<Account> accounts, KeyPolicy policy, String model) {
        return model != null && !model.isEmpty() && policy.allowsModel(model)
                && servedByAny(reachableAccounts(accounts, policy), model);
    }

    private static List<Account> reachableAccounts(List<Account> accounts, KeyPolicy policy) {
        List<Account> out = new ArrayList<>();
        for (Account account : accounts) {
            // D-4: an unreadable account's mappings are a stand-in, never a promise of a model
            if (!account.hasConfigError() && account.enabled() && !account.archived()
                    && policy.allowsGroup(account.groupId())) {
                out.add(account);
            }
        }
        return out;
    }

    private static boolean servedByAny(List<Account> accounts, String model) {
        return accounts.stream().anyMatch(a -> a.mappings().upstreamNameFor(model).isPresent());
    }
}
