package dev.detour.core.selection;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.ModelKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * S-1 steps 1–4 over the whole pool, one account at a time, each left-out account recorded with
 * the first step that dropped it. Step 1 is the key's group scope, then the S-10 admin blocks, then
 * the ratio ceiling (seed smart-router §9.4 order). Steps 2–4 are also judged for accounts the
 * policy removed, only to tell "the key's policy removed every route" (K-2) from "nothing serves this".
 */
final class Screening {
    private final List<Route> routes;
    private final List<Rejection> rejections = new ArrayList<>();
    private int capableInScope;
    private boolean policyRemovedAServer;
    /** The last group asked about and whether the key reaches it: a pool lists a group's accounts together. */
    private long scopedGroup;
    private boolean scopeAllows;
    private boolean scopeKnown;

    private Screening(int accounts) {
        this.routes = new ArrayList<>(accounts); // most of a pool serves the request: no growing copies
    }

    static Screening of(SelectionRequest request, List<Account> accounts, Instant now) {
        Screening screening = new Screening(accounts.size());
        List<BlockRule> blocks = request.activeBlockRules(now);
        for (Account account : accounts) {
            screening.screen(account, request, blocks);
        }
        return screening;
    }

    private void screen(Account account, SelectionRequest request, List<BlockRule> blocks) {
        ReasonCode unserved = unservedReason(account, request.family());
        Route route = unserved == null ? routeFor(account, request.requestedModel()) : null;
        ReasonCode refused = policyReason(account, route, request, blocks);
        if (refused != null) {
            policyRemovedAServer |= route != null;
            reject(account, refused);
        } else if (unserved != null) {
            reject(account, unserved);
        } else if (route == null) {
            capableInScope++;
            reject(account, ReasonCode.REJECTED_MODEL_UNMAPPED);
        } else {
            capableInScope++;
            routes.add(route);
        }
    }

    /**
     * Step 1 (and S-10, filtered in steps 1–3): group scope, an admin block in force, a group ratio
     * above the key's effective ceiling. The ratio compared is the group's: model base prices are
     * absolute amounts, not ratios, so they rank ({@code price}) but do not count against it.
     */
    private ReasonCode policyReason(Account account, Route route, SelectionRequest request,
            List<BlockRule> blocks) {
        if (!allowsGroup(request, account.groupId())) {
            return ReasonCode.REJECTED_GROUP_SCOPE;
        }
        if (!blocks.isEmpty() && blocked(route != null ? route : new Route(account, null, null), request, blocks)) {
            return ReasonCode.REJECTED_ADMIN_BLOCK;
        }
        long ceiling = request.ratioCeilingPpm();
        if (ceiling > 0 && request.group(account.groupId()).ratioPpm() > ceiling) {
            return ReasonCode.REJECTED_RATIO_CEILING;
        }
        return null;
    }

    private boolean allowsGroup(SelectionRequest request, long groupId) {
        if (!scopeKnown || groupId != scopedGroup) {
            scopedGroup = groupId;
            scopeAllows = request.keyPolicy().allowsGroup(groupId);
            scopeKnown = true;
        }
        return scopeAllows;
    }

    /** A loop, not a stream: this runs for every account of the pool on every request (N-10). */
    private static boolean blocked(Route subject, SelectionRequest request, List<BlockRule> blocks) {
        for (BlockRule rule : blocks) {
            if (rule.blocks(subject, request)) {
                return true;
            }
        }
        return false;
    }

    /** Steps 2 and 3: the load filter, then the endpoint-family capability. */
    private static ReasonCode unservedReason(Account account, EndpointFamily family) {
        if (!isLoadable(account)) {
            return ReasonCode.REJECTED_ACCOUNT_STATUS;
        }
        return ModelCatalog.servedFamilies(account).contains(family) ? null : ReasonCode.REJECTED_CONTRACT_MISMATCH;
    }

    /** Step 2: readable (D-4), enabled, not archived, status ok (not even warning), quota unknown or left. */
    static boolean isLoadable(Account account) {
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

    private void reject(Account account, ReasonCode reason) {
        rejections.add(new Rejection(account.id(), reason));
    }

    List<Route> routes() {
        return routes;
    }

    List<Rejection> rejections() {
        return rejections;
    }

    /**
     * Null when some route survived. Otherwise K-2's {@code no_eligible_route} when an account the
     * key's policy (scope, admin block, ratio ceiling) removed would have served it; else {@code no_accounts} when steps 2–3 left
     * nothing (the seed: the capability filter emptying the pool is "no accounts"), else
     * {@code model_unmatched}.
     */
    PoolErrorCode error() {
        if (!routes.isEmpty()) {
            return null;
        }
        if (policyRemovedAServer) {
            return PoolErrorCode.NO_ELIGIBLE_ROUTE;
        }
        return capableInScope == 0 ? PoolErrorCode.NO_ACCOUNTS : PoolErrorCode.MODEL_UNMATCHED;
    }
}
