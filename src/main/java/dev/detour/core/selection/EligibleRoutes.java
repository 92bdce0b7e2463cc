package dev.detour.core.selection;

import dev.detour.core.account.EndpointFamily;
import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * A request's eligible routes (S-1 step 6), in pool order, each with its place in the pool's {@link ServedRoutes}:
 * ranking reads what it needs of a route there, in primitive columns, rather than from the route's account (N-10).
 * Partition admits routes as it goes; afterwards the list is read-only (strategies may read it as any list).
 * Routes a caller lists itself (tests, explanations) are wrapped with columns of their own ({@link #of}).
 */
final class EligibleRoutes extends AbstractList<Route> implements RandomAccess {
    /** {@link #priority}'s value when the routes may have more than one. */
    static final int MIXED = Integer.MIN_VALUE;

    private final ServedRoutes served;
    private final Places slots;
    /** The one priority of all these routes (one S-3 tier), or {@link #MIXED} when not known to be one. */
    private final int priority;

    EligibleRoutes(ServedRoutes served, int capacity) {
        this(served, new Places(capacity), MIXED);
    }

    private EligibleRoutes(ServedRoutes served, Places slots, int priority) {
        this.served = served;
        this.slots = slots;
        this.priority = priority;
    }

    /** {@code routes} as eligible routes: themselves when they are, else with columns worked out for them. */
    static EligibleRoutes of(List<Route> routes, EndpointFamily family) {
        if (routes instanceof EligibleRoutes eligible) {
            return eligible;
        }
        EligibleRoutes eligible = new EligibleRoutes(ServedRoutes.ofRoutes(routes, family), routes.size());
        for (int i = 0; i < routes.size(); i++) {
            eligible.admit(i);
        }
        return eligible;
    }

    /** Partition: the route at {@code slot} of the pool is eligible (in pool order). */
    void admit(int slot) {
        slots.add(slot);
    }

    /** Partition: these routes of the pool are eligible, in pool order after those admitted so far. */
    void admitAll(int[] some) {
        slots.addAll(some);
    }

    @Override
    public Route get(int index) {
        return served.route(slots.get(Objects.checkIndex(index, slots.size())));
    }

    @Override
    public int size() {
        return slots.size();
    }

    /** The {@code index}-th route's place in {@link #served()}. */
    int slot(int index) {
        return slots.get(index);
    }

    ServedRoutes served() {
        return served;
    }

    RankFacts facts() {
        return served.facts();
    }

    /** The {@code index}-th route's account's priority. */
    int priority(int index) {
        return served.facts().priority[slots.get(index)];
    }

    /** The one priority of all these routes, or {@link #MIXED} when they are not known to share one. */
    int priority() {
        return priority;
    }

    /** The routes of {@code tier}'s priority, in the same order; these routes themselves when {@code all} have it. */
    EligibleRoutes tier(int tier, boolean all) {
        if (all) {
            return new EligibleRoutes(served, slots, tier);
        }
        EligibleRoutes routes = new EligibleRoutes(served, new Places(slots.size()), tier);
        int[] priorities = served.facts().priority;
        for (int i = 0; i < slots.size(); i++) {
            if (priorities[slots.get(i)] == tier) {
                routes.admit(slots.get(i));
            }
        }
        return routes;
    }
}
