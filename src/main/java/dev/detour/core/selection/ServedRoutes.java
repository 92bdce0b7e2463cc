package dev.detour.core.selection;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.ModelKey;
import dev.detour.core.account.ModelState;
import java.util.List;
import java.util.Map;

/**
 * What S-1 steps 2–4 and step 5's model row make of each account of a pool for one (endpoint family, requested
 * model), by the account's place in the pool: the reason steps 2–3 leave it out, else its route (null when it
 * does not map the model), and the route's model row. None of it depends on the key, the time or the load, so a
 * {@link PoolRoutes} works it out once per (family, model) and every request over that pool reuses it (N-10:
 * mapping every account of a 200-account pool on every request, a fresh {@link Route} each, was a quarter of
 * selection's time).
 */
final class ServedRoutes {
    private final Route[] routes;
    private final ReasonCode[] unserved;
    private final ModelState[] states;

    private ServedRoutes(int size) {
        routes = new Route[size];
        unserved = new ReasonCode[size];
        states = new ModelState[size];
    }

    static ServedRoutes of(List<Account> accounts, Map<ModelStateKey, ModelState> models, EndpointFamily family,
            String requestedModel) {
        ServedRoutes served = new ServedRoutes(accounts.size());
        for (int i = 0; i < accounts.size(); i++) {
            Account account = accounts.get(i);
            served.unserved[i] = unservedReason(account, family);
            if (served.unserved[i] == null) {
                Route route = routeFor(account, requestedModel);
                served.routes[i] = route;
                served.states[i] = route == null ? null : stateOf(route, models);
            }
        }
        return served;
    }

    /** Steps 2 and 3: the load filter, then the endpoint-family capability; null when the account passes both. */
    private static ReasonCode unservedReason(Account account, EndpointFamily family) {
        if (!isLoadable(account)) {
            return ReasonCode.REJECTED_ACCOUNT_STATUS;
        }
        return ModelCatalog.servedFamilies(account).contains(family) ? null : ReasonCode.REJECTED_CONTRACT_MISMATCH;
    }

    /** Step 2: readable (D-4), enabled, not archived, status ok (not even warning), quota unknown or left. */
    private static boolean isLoadable(Account account) {
        return !account.hasConfigError() && account.enabled() && !account.archived() && account.status() == AccountStatus.OK
                && (account.quotaRemaining() == null || account.quotaRemaining() > 0);
    }

    /** Step 4: the upstream name and model key, or null when the account does not serve the model. */
    private static Route routeFor(Account account, String requestedModel) {
        if (requestedModel == null) {
            return new Route(account, null, null);
        }
        String upstream = account.mappings().upstreamNameOrNull(requestedModel);
        return upstream == null ? null : new Route(account, upstream, ModelKey.of(upstream));
    }

    /** Step 5's row, keyed by (account, model key); a request without a model consults no model state. */
    private static ModelState stateOf(Route route, Map<ModelStateKey, ModelState> models) {
        if (route.modelKey() == null || models.isEmpty()) {
            return null;
        }
        return models.get(new ModelStateKey(route.account().id(), route.modelKey()));
    }

    /** Why steps 2–3 leave the pool's {@code index}-th account out, or null when it passes them. */
    ReasonCode unserved(int index) {
        return unserved[index];
    }

    /** The account's route, or null when steps 2–3 left it out or it does not map the model. */
    Route route(int index) {
        return routes[index];
    }

    /** The route's model row, or null when it has none (or the request names no model). */
    ModelState state(int index) {
        return states[index];
    }
}
