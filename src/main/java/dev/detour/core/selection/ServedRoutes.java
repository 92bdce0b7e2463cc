package dev.detour.core.selection;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.ModelKey;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.account.Protocols;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What S-1 steps 2–4 and step 5's model row make of each account of a pool for one (endpoint family, requested
 * model), by the account's place in the pool: the reason steps 2–3 leave it out, else its route (null when it
 * does not map the model), and the route's model row. None of it depends on the key, the time or the load, so a
 * {@link PoolRoutes} works it out once per (family, model) and every request over that pool reuses it (N-10:
 * mapping every account of a 200-account pool on every request, a fresh {@link Route} each, was a quarter of
 * selection's time).
 *
 * <p>It also keeps, per route, what steps 5–6 and the ranking read on every request, so they need not visit the
 * route's account (N-10, {@link RankFacts}): the model row's verdict (paused, error), the later of the account's
 * block and the model's cooldown, whether the request is bridged to it (B-1), and S-4's weight but for the idle
 * bonus within its priority tier — valid for a request whose eligible tier has the same largest quota and weight,
 * as it has when nothing of the tier is cooling or out of the key's reach (otherwise ranking works it out).
 */
final class ServedRoutes {
    private final RankFacts facts;
    private final Route[] routes;
    private final ReasonCode[] unserved;
    private final ModelState[] states;
    /** Step 5's verdict on the route's model row (paused, error), or null. */
    private final ReasonCode[] dropped;
    /** The later of the account's block and the model row's cooldown, or null. */
    private final Instant[] recovers;
    private final boolean[] bridged;
    /**
     * S-4's weight but for the idle bonus (10 × quota ratio + 3 × success rate), the quota ratio against the
     * largest quota and weight among the served routes of the route's priority.
     */
    private final long[] settledWeight;
    /** The served routes' priority tiers, by priority. */
    private final Map<Integer, Tier> tiers = new HashMap<>();
    /** The pool's stretches of one group, in pool order, with what steps 2–5 make of them. */
    private ServedRun[] runs;
    /** The one priority of every served route, or {@link EligibleRoutes#MIXED} when they have more (or none). */
    private int onlyPriority = EligibleRoutes.MIXED;

    /** A priority tier of the served routes: how many, and its largest quota and weight (the quota ratio's). */
    private static final class Tier {
        int routes;
        long maxQuota;
        long maxWeight;
    }

    private ServedRoutes(RankFacts facts) {
        int size = facts.size();
        this.facts = facts;
        routes = new Route[size];
        unserved = new ReasonCode[size];
        states = new ModelState[size];
        dropped = new ReasonCode[size];
        recovers = new Instant[size];
        bridged = new boolean[size];
        settledWeight = new long[size];
    }

    /** {@code facts} are the accounts' own ({@link RankFacts#of}), by the same places. */
    static ServedRoutes of(List<Account> accounts, RankFacts facts, Map<ModelStateKey, ModelState> models,
            EndpointFamily family, String requestedModel) {
        ServedRoutes served = new ServedRoutes(facts);
        for (int i = 0; i < accounts.size(); i++) {
            Account account = accounts.get(i);
            served.unserved[i] = unservedReason(account, family);
            if (served.unserved[i] == null) {
                Route route = routeFor(account, requestedModel);
                served.routes[i] = route;
                if (route != null) {
                    ModelState state = stateOf(route, models);
                    served.states[i] = state;
                    served.dropped[i] = verdict(state);
                    AccountFailureState failure = account.failure();
                    served.recovers[i] = AccountFailureState.later(failure == null ? null : failure.blockedUntil(),
                            state == null ? null : state.cooldownUntil());
                    served.bridged[i] = Protocols.bridged(account, family);
                }
            }
        }
        served.settle();
        return served;
    }

    /**
     * Routes a caller lists itself (tests, explanations, a tier ranked whole), by their places in the list: what
     * ranking reads of them, without model rows (ranking reads none).
     */
    static ServedRoutes ofRoutes(List<Route> routes, EndpointFamily family) {
        List<Account> accounts = new ArrayList<>(routes.size());
        routes.forEach(route -> accounts.add(route.account()));
        ServedRoutes served = new ServedRoutes(RankFacts.of(accounts));
        for (int i = 0; i < routes.size(); i++) {
            served.routes[i] = routes.get(i);
            served.bridged[i] = Protocols.bridged(routes.get(i).account(), family);
        }
        served.settle();
        return served;
    }

    /** What is worked out from the routes once they are all known: the tiers' weights, the group stretches. */
    private void settle() {
        weighQuotas();
        if (tiers.size() == 1) {
            onlyPriority = tiers.keySet().iterator().next();
        }
        runs = ServedRun.of(this);
    }

    /** Step 5: a paused or error model row drops the route outright. */
    private static ReasonCode verdict(ModelState state) {
        if (state != null && state.status() == ModelStatus.PAUSED) {
            return ReasonCode.REJECTED_MODEL_PAUSED;
        }
        if (state != null && state.status() == ModelStatus.ERROR) {
            return ReasonCode.REJECTED_MODEL_ERROR;
        }
        return null;
    }

    /** Each priority tier's routes, largest quota and weight, and each route's settled S-4 weight in it. */
    private void weighQuotas() {
        for (int i = 0; i < routes.length; i++) {
            if (routes[i] != null) {
                Tier tier = tiers.computeIfAbsent(facts.priority[i], p -> new Tier());
                tier.routes++;
                if (facts.quota[i] != RankFacts.NO_QUOTA) {
                    tier.maxQuota = Math.max(tier.maxQuota, facts.quota[i]);
                } else {
                    tier.maxWeight = Math.max(tier.maxWeight, facts.weight[i]);
                }
            }
        }
        for (int i = 0; i < routes.length; i++) {
            if (routes[i] != null) {
                Tier tier = tiers.get(facts.priority[i]);
                settledWeight[i] = TierPick.settledWeightPpm(TierPick.quotaRatioPpm(facts.quota[i], facts.weight[i],
                        tier.maxQuota, tier.maxWeight), facts.successPpm[i]);
            }
        }
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

    RankFacts facts() {
        return facts;
    }

    /** Step 5's verdict on the route's model row ({@code rejected_model_paused} / {@code _error}), or null. */
    ReasonCode dropped(int index) {
        return dropped[index];
    }

    /** The later of the account's block and the route's model cooldown, or null when neither was ever set. */
    Instant recovers(int index) {
        return recovers[index];
    }

    /** Whether the request reaches the route through the bridge (B-1). */
    boolean bridged(int index) {
        return bridged[index];
    }

    /** The pool's stretches of one group, in pool order ({@link ServedRun}). */
    ServedRun[] runs() {
        return runs;
    }

    /** The one priority all the served routes have (so any of them has), or {@link EligibleRoutes#MIXED}. */
    int onlyPriority() {
        return onlyPriority;
    }

    /** How many served routes have {@code priority} (a request's tier of that many is all of them). */
    int tierSize(int priority) {
        Tier tier = tiers.get(priority);
        return tier == null ? 0 : tier.routes;
    }

    /**
     * Whether the settled weights kept for the routes of {@code priority} are the ones S-4 works out in a tier
     * whose largest quota and weight are {@code maxQuota} and {@code maxWeight} ({@link #settledWeight}).
     */
    boolean settledWeightsHold(int priority, long maxQuota, long maxWeight) {
        Tier tier = tiers.get(priority);
        return tier != null && tier.maxQuota == maxQuota && tier.maxWeight == maxWeight;
    }

    /** The route's S-4 weight but for the idle bonus, within all the served routes of its priority. */
    long settledWeight(int index) {
        return settledWeight[index];
    }
}
