package dev.detour.core.selection;

import dev.detour.core.account.Account;
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
    private final List<Account> accounts;
    private final ServedRoutes served;
    /** The accounts' groups, by place (N-10: no visit to each account for it). */
    private final long[] groupIds;
    /** The places in the pool of the accounts that survived, in pool order; {@code survived} of them are set. */
    private final int[] survivors;
    private int survived;
    private final List<Rejection> rejections = new ArrayList<>();
    private int capableInScope;
    private boolean policyRemovedAServer;
    /** The key's effective ratio ceiling (0 = none): the same for every account. */
    private final long ratioCeiling;
    /** The last group asked about and whether the key reaches it: a pool lists a group's accounts together. */
    private long scopedGroup;
    private boolean scopeAllows;
    private boolean scopeKnown;

    private Screening(PoolRoutes pool, SelectionRequest request) {
        this.accounts = pool.accounts();
        this.served = pool.served(request.family(), request.requestedModel());
        this.groupIds = served.facts().groupId;
        this.survivors = new int[accounts.size()];
        this.ratioCeiling = request.ratioCeilingPpm();
    }

    static Screening of(SelectionRequest request, PoolRoutes pool, Instant now) {
        Screening screening = new Screening(pool, request);
        List<BlockRule> blocks = request.activeBlockRules(now);
        for (int i = 0; i < screening.accounts.size(); i++) {
            screening.screen(i, request, blocks);
        }
        return screening;
    }

    private void screen(int index, SelectionRequest request, List<BlockRule> blocks) {
        ReasonCode unserved = served.unserved(index);
        Route route = served.route(index);
        ReasonCode refused = policyReason(index, route, request, blocks);
        if (refused != null) {
            policyRemovedAServer |= route != null;
            reject(index, refused);
        } else if (unserved != null) {
            reject(index, unserved);
        } else if (route == null) {
            capableInScope++;
            reject(index, ReasonCode.REJECTED_MODEL_UNMAPPED);
        } else {
            capableInScope++;
            survivors[survived++] = index;
        }
    }

    /**
     * Step 1 (and S-10, filtered in steps 1–3): group scope, an admin block in force, a group ratio
     * above the key's effective ceiling. The ratio compared is the group's: model base prices are
     * absolute amounts, not ratios, so they rank ({@code price}) but do not count against it.
     */
    private ReasonCode policyReason(int index, Route route, SelectionRequest request, List<BlockRule> blocks) {
        long groupId = groupIds[index];
        if (!allowsGroup(request, groupId)) {
            return ReasonCode.REJECTED_GROUP_SCOPE;
        }
        if (!blocks.isEmpty()
                && blocked(route != null ? route : new Route(accounts.get(index), null, null), request, blocks)) {
            return ReasonCode.REJECTED_ADMIN_BLOCK;
        }
        if (ratioCeiling > 0 && request.group(groupId).ratioPpm() > ratioCeiling) {
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

    private void reject(int index, ReasonCode reason) {
        rejections.add(new Rejection(served.facts().id[index], reason));
    }

    /** How many accounts survived steps 1–4. */
    int survived() {
        return survived;
    }

    ServedRoutes served() {
        return served;
    }

    /** The {@code nth} surviving account's place in the pool ({@link #served()}). */
    int slot(int nth) {
        return survivors[nth];
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
        if (survived > 0) {
            return null;
        }
        if (policyRemovedAServer) {
            return PoolErrorCode.NO_ELIGIBLE_ROUTE;
        }
        return capableInScope == 0 ? PoolErrorCode.NO_ACCOUNTS : PoolErrorCode.MODEL_UNMATCHED;
    }
}
