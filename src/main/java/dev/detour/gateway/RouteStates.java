package dev.detour.gateway;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.ModelKey;
import dev.detour.core.selection.Candidate;
import dev.detour.core.selection.ModelCatalog;
import dev.detour.core.selection.Plan;
import dev.detour.core.selection.ReasonCode;
import dev.detour.core.selection.Rejection;
import dev.detour.gateway.admission.SmartKeyFacts;
import dev.detour.gateway.live.Leases;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.port.KeyEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * E-1: for each model a key may use and each endpoint family (contract) serving it, its routes
 * (group name + account alias, never a URL or a secret) and a state, from a dry-run selection (no
 * upstream is called). Seed smart-router §18.2: the page is laid out by model and contract.
 */
public final class RouteStates {
    /** State wire names; the page translates them ({@code my.state.*}). */
    public enum State { AVAILABLE, BUSY, CHECKING, UNAVAILABLE, UNSAMPLED, UNSUPPORTED, OVER_CEILING, BLOCKED;

        public String wire() {
            return name().toLowerCase();
        }
    }

    /** The families a key holder sees a section for (the model list and token counting ride along). */
    static final List<EndpointFamily> SHOWN = List.of(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.RESPONSES,
            EndpointFamily.MESSAGES, EndpointFamily.COMPLETIONS, EndpointFamily.EMBEDDINGS);

    /** {@code checkable}: unavailable for a reason a probe can clear (cooling, model error, account error). */
    public record RouteState(long accountId, String account, String group, long ratioPpm, State state,
            Long retryInSeconds, String modelKey, boolean checkable) {
    }

    public record FamilyRoutes(String family, List<RouteState> routes) {
    }

    public record ModelRoutes(String model, List<FamilyRoutes> families, boolean sampled) {
        /** The routes a "check now" would probe, once per account whatever the family. */
        public List<RouteState> checkable() {
            Map<Long, RouteState> byAccount = new LinkedHashMap<>();
            families.forEach(f -> f.routes().stream().filter(RouteState::checkable)
                    .forEach(r -> byAccount.putIfAbsent(r.accountId(), r)));
            return List.copyOf(byAccount.values());
        }
    }

    /** Which routes a queued key check is probing right now (they show as "checking"). */
    public interface Checking {
        Checking NONE = (accountId, modelKey) -> false;

        boolean checking(long accountId, String modelKey);
    }

    private final Router router;
    private final SmartKeyFacts smart;
    private final Leases leases;
    private final Checking checking;

    public RouteStates(Router router, SmartKeyFacts smart, Leases leases, Checking checking) {
        this.router = router;
        this.smart = smart;
        this.leases = leases;
        this.checking = checking;
    }

    public List<ModelRoutes> of(PoolSnapshot.View view, KeyEntry key, Instant now) {
        List<ModelRoutes> models = new ArrayList<>();
        for (String model : ModelCatalog.clientModels(view.accounts(), key.policy())) {
            models.add(of(view, key, model, now));
        }
        return models;
    }

    public ModelRoutes of(PoolSnapshot.View view, KeyEntry key, String model, Instant now) {
        List<FamilyRoutes> families = new ArrayList<>();
        for (EndpointFamily family : familiesServing(view, key, model)) {
            families.add(new FamilyRoutes(family.wire(), routes(view, key, family, model, now)));
        }
        boolean sampled = families.stream().flatMap(f -> f.routes().stream())
                .anyMatch(r -> r.state() != State.UNSAMPLED && r.state() != State.UNSUPPORTED);
        return new ModelRoutes(model, families, sampled);
    }

    /** The shown families any account of the key's scope mapping the model serves; chat when none says. */
    static List<EndpointFamily> familiesServing(PoolSnapshot.View view, KeyEntry key, String model) {
        Set<EndpointFamily> served = EnumSet.noneOf(EndpointFamily.class);
        for (Account a : view.accounts()) {
            if (!a.hasConfigError() && a.enabled() && !a.archived() && key.policy().allowsGroup(a.groupId())
                    && a.mappings().upstreamNameFor(model).isPresent()) {
                served.addAll(ModelCatalog.servedFamilies(a));
            }
        }
        List<EndpointFamily> shown = SHOWN.stream().filter(served::contains).toList();
        return shown.isEmpty() ? List.of(EndpointFamily.CHAT_COMPLETIONS) : shown;
    }

    private List<RouteState> routes(PoolSnapshot.View view, KeyEntry key, EndpointFamily family, String model,
            Instant now) {
        Plan plan = router.preview(view, key, family, model, now);
        List<RouteState> routes = new ArrayList<>();
        for (Candidate c : plan.candidates()) {
            boolean cooling = c.coolingUntil() != null; // S-2: tried as the soonest-recovering route
            routes.add(route(view, c.account(), c.modelKey(), candidateState(c), retry(c.coolingUntil(), now), cooling));
        }
        for (Rejection r : plan.rejections()) {
            State state = rejectedState(r.reason());
            Account account = view.byId().get(r.accountId());
            // D-4: an unreadable account's mappings are a stand-in, so it is no route of any model
            String upstream = account == null || account.hasConfigError() ? null : account.mappings().upstreamNameFor(model).orElse(null);
            if (state != null && upstream != null) {
                routes.add(route(view, account, ModelKey.of(upstream), state, retry(r.until(), now),
                        probeCanClear(r.reason(), account)));
            }
        }
        return routes;
    }

    private RouteState route(PoolSnapshot.View view, Account account, String modelKey, State state, Long retry,
            boolean checkable) {
        var group = view.groups().get(account.groupId());
        long ratio = group == null ? 1_000_000L : group.ratioPpm();
        State shown = checkable && checking.checking(account.id(), modelKey) ? State.CHECKING : state;
        return new RouteState(account.id(), account.name(), smart.groupName(account.groupId()), ratio, shown, retry,
                modelKey, checkable);
    }

    private State candidateState(Candidate c) {
        if (c.coolingUntil() != null) {
            return State.CHECKING;
        }
        Account a = c.account();
        int limit = router.capacityShare(a.maxInFlight()); // S-5: this instance's share, as the Forwarder enforces
        if (limit > 0 && leases.inFlight(a.id()) >= limit) {
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

    /** automation (and so a key holder's check) may only undo automation — never a pause or a revocation. */
    static boolean probeCanClear(ReasonCode reason, Account account) {
        return switch (reason) {
            case REJECTED_COOLING, REJECTED_MODEL_ERROR -> true;
            case REJECTED_ACCOUNT_STATUS -> !account.hasConfigError() && account.enabled() && !account.archived()
                    && (account.status() == AccountStatus.ERROR || account.status() == AccountStatus.WARNING);
            default -> false;
        };
    }

    private static Long retry(Instant until, Instant now) {
        return until == null ? null : Math.max(0, Duration.between(now, until).toSeconds());
    }
}
