package dev.detour.core.selection;

import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * S-1 steps 5–6 (seed: "The partition decision order"): a paused or error model row drops the
 * route outright — a verdict, not a wait, so no probe fallback; an unexpired account block
 * (retry/cooldown/breaker), model cooldown or group halt makes it cooling, recovering at the
 * later of those timestamps; everything else is eligible.
 */
final class Partition {
    /**
     * A cooling route; {@code haltedUntil} is set when its group is halted (S-9); {@code stated} when its
     * model row is inside a window the upstream itself stated on a 429 (C-4').
     */
    record Cooled(Route route, Instant until, Instant haltedUntil, boolean stated) {
        boolean halted() {
            return haltedUntil != null;
        }

        Rejection rejection() {
            ReasonCode reason = halted() ? ReasonCode.REJECTED_GROUP_HALTED : ReasonCode.REJECTED_COOLING;
            return new Rejection(route.account().id(), reason, until);
        }
    }

    private final List<Route> eligible;
    private final List<Cooled> cooling = new ArrayList<>();
    private final List<Rejection> dropped = new ArrayList<>();

    private Partition(int routes) {
        this.eligible = new ArrayList<>(routes); // most routes are eligible: no growing copies (N-10)
    }

    static Partition of(Screening screened, SelectionRequest request, Instant now) {
        Partition partition = new Partition(screened.survived());
        GroupView group = null;
        long groupOf = 0;
        for (int nth = 0; nth < screened.survived(); nth++) {
            Route route = screened.route(nth);
            long groupId = route.account().groupId();
            if (group == null || groupOf != groupId) { // a pool lists a group's accounts together
                group = request.group(groupId);
                groupOf = groupId;
            }
            partition.place(route, screened.state(nth), group, now);
        }
        return partition;
    }

    private void place(Route route, ModelState state, GroupView group, Instant now) {
        if (state != null && state.status() == ModelStatus.PAUSED) {
            dropped.add(new Rejection(route.account().id(), ReasonCode.REJECTED_MODEL_PAUSED));
        } else if (state != null && state.status() == ModelStatus.ERROR) {
            dropped.add(new Rejection(route.account().id(), ReasonCode.REJECTED_MODEL_ERROR));
        } else {
            Instant until = recoveryTime(route, state, group);
            if (until != null && until.isAfter(now)) {
                cooling.add(new Cooled(route, until, group.haltedAt(now) ? group.haltedUntil() : null,
                        state != null && state.upstreamStatedAt(now)));
            } else {
                eligible.add(route);
            }
        }
    }

    /** The later of account block, model cooldown and group halt; it lies ahead iff any of them does. */
    private static Instant recoveryTime(Route route, ModelState state, GroupView group) {
        AccountFailureState failure = route.account().failure();
        Instant until = failure == null ? null : failure.blockedUntil();
        if (state != null) {
            until = AccountFailureState.later(until, state.cooldownUntil());
        }
        return AccountFailureState.later(until, group.haltedUntil());
    }

    List<Route> eligible() {
        return eligible;
    }

    List<Cooled> cooling() {
        return cooling;
    }

    List<Rejection> dropped() {
        return dropped;
    }

    /**
     * S-2: the cooling route recovering soonest, ties to the earlier one in pool order; only
     * Detour's own time-based cooldowns compete — a halted group's routes wait for the halt (S-9), a
     * route inside an upstream-stated window waits for it (C-4'). Null if none.
     */
    Cooled soonestRecovering() {
        Cooled best = null;
        for (Cooled c : cooling) {
            if (!c.halted() && !c.stated() && (best == null || c.until().isBefore(best.until()))) {
                best = c;
            }
        }
        return best;
    }

    /** C-4': some cooling route waits for a window its upstream stated. */
    boolean anyStated() {
        return cooling.stream().anyMatch(Cooled::stated);
    }

    /** When the first cooling route is usable again: the Retry-After of {@code route_pool.rate_limited}. */
    Instant earliestRecovery() {
        Instant earliest = null;
        for (Cooled c : cooling) {
            if (earliest == null || c.until().isBefore(earliest)) {
                earliest = c.until();
            }
        }
        return earliest;
    }

    /** When the earliest halted group lifts its halt: the Retry-After of {@code route_pool.halted}. */
    Instant earliestHaltEnd() {
        Instant earliest = null;
        for (Cooled c : cooling) {
            if (c.halted() && (earliest == null || c.haltedUntil().isBefore(earliest))) {
                earliest = c.haltedUntil();
            }
        }
        return earliest;
    }
}
