package dev.detour.gateway;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.selection.Candidate;
import dev.detour.core.selection.ModelCatalog;
import dev.detour.core.selection.Plan;
import dev.detour.core.selection.ReasonCode;
import dev.detour.core.selection.Rejection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * E-1: for each model a key may use, its routes (group name + account alias, never a URL or a
 * secret) and a state, from a dry-run selection (no upstream is called).
 */
public final class RouteStates {
    /** State wire names; the page translates them ({@code my.state.*}). */
    public enum State { AVAILABLE, BUSY, CHECKING, UNAVAILABLE, UNSAMPLED, UNSUPPORTED, OVER_CEILING, BLOCKED;

        public String wire() {
            return name().toLowerCase();
        }
    }

    public record RouteState(long accountId, String account, String group, long ratioPpm, State state,
            Long retryInSeconds) {
    }

    public record ModelRoutes(String model, List<RouteState> routes, boolean sampled) {
    }

    private final Router router;
    private final SmartKeys smart;
    private final Leases leases;

    public RouteStates(Router router, SmartKeys smart, Leases leases) {
        this.router = router;
        this.smart = smart;
        this.leases = leases;
    }

    public List<ModelRoutes> of(PoolSnapshot.View view, KeyEntry key, Instant now) {
        List<ModelRoutes> models = new ArrayList<>();
        for (String model : ModelCatalog.clientModels(view.accounts(), key.policy())) {
            Plan plan = router.preview(view, key, EndpointFamily.CHAT_COMPLETIONS, model, now);
            List<RouteState> routes = new ArrayList<>();
            for (Candidate c : plan.candidates()) {
                routes.add(route(view, c.account(), candidateState(c), retry(c.coolingUntil(), now)));
            }
            for (Rejection r : plan.rejections()) {
                State state = rejectedState(r.reason());
                Account account = view.byId().get(r.accountId());
                if (state != null && account != null && account.mappings().upstreamNameFor(model).isPresent()) {
                    routes.add(route(view, account, state, retry(r.until(), now)));
                }
            }
            boolean sampled = routes.stream().anyMatch(r -> r.state() != State.UNSAMPLED);
            models.add(new ModelRoutes(model, routes, sampled));
        }
        return models;
    }

    private RouteState route(PoolSnapshot.View view, Account account, State state, Long retry) {
        var group = view.groups().get(account.groupId());
        long ratio = group == null ? 1_000_000L : group.ratioPpm();
        return new RouteState(account.id(), account.name(), smart.groupName(account.groupId()), ratio, state, retry);
    }

    private State candidateState(Candidate c) {
        if (c.coolingUntil() != null) {
            return State.CHECKING; // S-2: tried as the soonest-recovering route
        }
        Account a = c.account();
        if (a.maxInFlight() > 0 && leases.inFlight(a.id()) >= a.maxInFlight()) {
            return State.BUSY;
        }
        return smart.stats().of(a.id(), c.modelKey()) == null ? State.UNSAMPLED : State.AVAILABLE;
    }

    /** Null for reasons that are not the route's state (not mapped, outside the key's groups). */
    static State rejectedState(ReasonCode reason) {
        return switch (reason) {
            case REJECTED_ADMIN_BLOCK -> State.BLOCKED;
            case REJECTED_RATIO_CEILING -> State.OVER_CEILING;
            case REJECTED_CONTRACT_MISMATCH -> State.UNSUPPORTED;
            case REJECTED_COOLING, REJECTED_MODEL_PAUSED, REJECTED_MODEL_ERROR, REJECTED_ACCOUNT_STATUS,
                    REJECTED_GROUP_HALTED -> State.UNAVAILABLE;
            default -> null;
        };
    }

    private static Long retry(Instant until, Instant now) {
        return until == null ? null : Math.max(0, Duration.between(now, until).toSeconds());
    }
}
