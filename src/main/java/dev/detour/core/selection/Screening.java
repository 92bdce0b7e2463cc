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
    /** The places in the pool of the accounts that survived, in pool order. */
    private final Places survivors;
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
        this.survivors = new Places(accounts.size());
        this.ratioCeiling = request.ratioCeilingPpm();
    }

    static Screening of(SelectionRequest request, PoolRoutes pool, Instant now) {
        Screening screening = new Screening(pool, request);
        List<BlockRule> blocks = request.activeBlockRules(now);
        if (blocks.isEmpty()) {
            screening.byStretches(request);
        } else {
            for (int i = 0; i < screening.accounts.size(); i++) {
                screening.screen(i, request, blocks);
            }
        }
        return screening;
    }

    /**
     * With no block rule in force: each stretch of a group the key's policy lets through is taken whole, as worked
     * out with the pool ({@link ServedRun}); the accounts of any other are visited one by one, as with blocks.
     */
    private void byStretches(SelectionRequest request) {
        ServedRun[] runs = served.runs();
        for (ServedRun run : runs) {
            if (groupReason(run.groupId, request) != null) {
                for (int i = run.from; i < run.to; i++) {
                    screen(i, request, List.of());
                }
                continue;
            }
            rejections.addAll(run.unserved);
            capableInScope += run.capable;
            survivors.addAll(run.survivors);
        }
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
            survivors.add(index);
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
        return ratioReason(request, groupId);
    }

    /** {@link #policyReason} of an account of {@code groupId} when no block rule is in force. */
    private ReasonCode groupReason(long groupId, SelectionRequest request) {
        return allowsGroup(request, groupId) ? ratioReason(request, groupId) : ReasonCode.REJECTED_GROUP_SCOPE;
    }

    private ReasonCode ratioReason(SelectionRequest request, long groupId) {
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
        return survivors.size();
    }

    ServedRoutes served() {
        return served;
    }

    /** The {@code nth} surviving account's place in the pool ({@link #served()}). */
    int slot(int nth) {
        return survivors.get(nth);
    }

    /**
     * Whether the survivors from the {@code nth} on begin with every survivor of {@code run}, the whole stretch. They
     * are some of its survivors in pool order, so when as many as it has run from its first to its last, they are
     * all of them.
     */
    boolean tookWhole(int nth, ServedRun run) {
        int count = run.survivors.length;
        return count > 0 && nth + count <= survivors.size() && survivors.get(nth) == run.survivors[0]
                && survivors.get(nth + count - 1) == run.survivors[count - 1];
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
        if (survivors.size() > 0) {
            return null;
        }
        if (policyRemovedAServer) {
            return PoolErrorCode.NO_ELIGIBLE_ROUTE;
        }
        return capableInScope == 0 ? PoolErrorCode.NO_ACCOUNTS : PoolErrorCode.MODEL_UNMATCHED;
    }
}
