package dev.detour.core.selection;

import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.ModelState;
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

    private final ServedRoutes served;
    private final EligibleRoutes eligible;
    private final List<Cooled> cooling = new ArrayList<>();
    private final List<Rejection> dropped = new ArrayList<>();

    private Partition(ServedRoutes served, int routes) {
        this.served = served;
        this.eligible = new EligibleRoutes(served, routes);
    }

    static Partition of(Screening screened, SelectionRequest request, Instant now) {
        Partition partition = new Partition(screened.served(), screened.survived());
        int nth = 0; // the next survivor; survivors are in pool order, so each stretch's come together
        for (ServedRun run : screened.served().runs()) {
            if (nth == screened.survived()) {
                break;
            }
            if (screened.slot(nth) >= run.to) {
                continue; // nothing of this stretch survived screening
            }
            GroupView group = request.group(run.groupId);
            if (screened.tookWhole(nth, run)) {
                if (!partition.admitsWhole(run, group, now)) {
                    for (int slot : run.survivors) {
                        partition.place(slot, group, now);
                    }
                }
                nth += run.survivors.length;
                continue;
            }
            for (; nth < screened.survived() && screened.slot(nth) < run.to; nth++) {
                partition.place(screened.slot(nth), group, now);
            }
        }
        return partition;
    }

    /**
     * A stretch all of whose survivors survived, when nothing about it changes with the time: its group not halted,
     * none of its ready routes cooling. Then its model-row rejections and ready routes are the ones worked out with
     * the pool, taken whole (N-10); otherwise false, and each route is placed in turn.
     */
    private boolean admitsWhole(ServedRun run, GroupView group, Instant now) {
        if (group.haltedAt(now) || !run.recoveredAt(now)) {
            return false;
        }
        dropped.addAll(run.dropped);
        eligible.admitAll(run.ready);
        return true;
    }

    /** By the route's place in the pool: what decides it was worked out with the pool ({@link ServedRoutes}). */
    private void place(int slot, GroupView group, Instant now) {
        ReasonCode verdict = served.dropped(slot);
        if (verdict != null) {
            dropped.add(new Rejection(served.facts().id[slot], verdict));
            return;
        }
        // the later of account block, model cooldown and group halt; it lies ahead iff any of them does
        Instant until = AccountFailureState.later(served.recovers(slot), group.haltedUntil());
        if (until != null && until.isAfter(now)) {
            ModelState state = served.state(slot);
            cooling.add(new Cooled(served.route(slot), until, group.haltedAt(now) ? group.haltedUntil() : null,
                    state != null && state.upstreamStatedAt(now)));
        } else {
            eligible.admit(slot);
        }
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
