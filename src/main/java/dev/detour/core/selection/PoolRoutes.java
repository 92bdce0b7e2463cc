package dev.detour.core.selection;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.ModelState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pool as selection plans over it: its accounts in pool order and their model rows, both read as they are and
 * never changed afterwards (the gateway's snapshot replaces a pool, it does not edit one), with each
 * (endpoint family, requested model)'s {@link ServedRoutes} kept once worked out. Thread-safe without a lock:
 * requests share one, reading an immutable map of what is kept; one that works out a new entry publishes a copy
 * with it added, and of two that publish at once one entry may be lost, to be worked out again by a later request
 * (a pool is asked for a handful of models, so the copies are few and small). The whole pool also keeps each
 * group's accounts as a pool of their own (N-10: a key limited to one group plans over that group only).
 */
public final class PoolRoutes {
    /**
     * Entries kept at most: a pool is asked for a handful of models, but the requested name is the client's, so
     * past this many the rest are worked out per request rather than kept.
     */
    static final int MAX_KEPT = 256;

    private record Asked(EndpointFamily family, String model) {
    }

    private final List<Account> accounts;
    /** What selection reads of each account per request, by its place in {@link #accounts}. */
    private final RankFacts facts;
    private final Map<ModelStateKey, ModelState> models;
    /** Each group's accounts, in pool order, by group id; empty in a subset (it indexes no groups of its own). */
    private final Map<Long, PoolRoutes> groups;
    private volatile Map<Asked, ServedRoutes> served = Map.of();

    private PoolRoutes(List<Account> accounts, Map<ModelStateKey, ModelState> models, boolean indexGroups) {
        this.accounts = accounts;
        this.facts = RankFacts.of(accounts);
        this.models = models == null ? Map.of() : models;
        this.groups = indexGroups ? groupsOf(accounts, this.models) : Map.of();
    }

    /** The pool of {@code accounts} with their {@code models} rows; neither may change afterwards. */
    public static PoolRoutes of(List<Account> accounts, Map<ModelStateKey, ModelState> models) {
        return new PoolRoutes(accounts, models, true);
    }

    private static Map<Long, PoolRoutes> groupsOf(List<Account> accounts, Map<ModelStateKey, ModelState> models) {
        Map<Long, List<Account>> lists = new HashMap<>();
        for (Account a : accounts) {
            lists.computeIfAbsent(a.groupId(), g -> new ArrayList<>()).add(a);
        }
        Map<Long, PoolRoutes> groups = new HashMap<>();
        lists.forEach((g, list) -> groups.put(g, new PoolRoutes(List.copyOf(list), models, false)));
        return groups;
    }

    public List<Account> accounts() {
        return accounts;
    }

    public Map<ModelStateKey, ModelState> models() {
        return models;
    }

    /** The same model rows over some of these accounts (one account's), in their order. */
    public PoolRoutes subset(List<Account> some) {
        return new PoolRoutes(some, models, false);
    }

    /** The pool of one group's accounts, in pool order, kept with this pool; empty when the group has none here. */
    public PoolRoutes group(long groupId) {
        PoolRoutes group = groups.get(groupId);
        return group != null ? group : subset(List.of());
    }

    ServedRoutes served(EndpointFamily family, String model) {
        Asked asked = new Asked(family, model);
        ServedRoutes known = served.get(asked);
        if (known != null) {
            return known;
        }
        ServedRoutes worked = ServedRoutes.of(accounts, facts, models, family, model);
        Map<Asked, ServedRoutes> before = served;
        if (before.size() < MAX_KEPT) {
            Map<Asked, ServedRoutes> after = new HashMap<>(before);
            after.put(asked, worked);
            served = Map.copyOf(after);
        }
        return worked;
    }

    /** How many (family, model) entries are kept (tests). */
    int kept() {
        return served.size();
    }
}
