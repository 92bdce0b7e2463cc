package dev.detour.gateway.live;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.keys.GroupScope;
import dev.detour.core.selection.GroupView;
import dev.detour.core.selection.ModelStateKey;
import dev.detour.core.selection.PoolRoutes;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.port.PoolStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The in-memory pool every selection reads (N-2, O-4): accounts, model rows, groups and keys.
 * Replaced wholesale when the database revision moves (other instances, admin changes), and
 * patched at once by this instance's own state writes. Readers never lock.
 */
public final class PoolSnapshot {
    /**
     * {@code served}: model keys each account served lately (C-3's denominator for accounts without mappings);
     * {@code routes}: the accounts and model rows as selection plans over them, each group's too (N-10: what each
     * account serves is worked out once per view and model, not per request).
     */
    public record View(long revision, List<Account> accounts, Map<Long, Account> byId,
            Map<ModelStateKey, ModelState> models, Map<Long, GroupView> groups, Map<String, KeyEntry> keysByHash,
            Map<Long, String> apiKeys, Map<Long, Set<String>> served, PoolRoutes routes) {

        public View {
            // immutable once here: every request's SelectionRequest takes the groups as they are, without a copy
            groups = groups == null ? Map.of() : Map.copyOf(groups);
        }

        /** A view of {@code accounts} and their {@code models} rows, neither changed afterwards. */
        public View(long revision, List<Account> accounts, Map<Long, Account> byId,
                Map<ModelStateKey, ModelState> models, Map<Long, GroupView> groups, Map<String, KeyEntry> keysByHash,
                Map<Long, String> apiKeys, Map<Long, Set<String>> served) {
            this(revision, accounts, byId, models, groups, keysByHash, apiKeys, served, PoolRoutes.of(accounts, models));
        }

        public Set<String> servedBy(long accountId) {
            return served.getOrDefault(accountId, Set.of());
        }

        /**
         * N-10: the pool a key limited to one group can reach (that group's accounts, from the index, in pool
         * order); otherwise the whole pool, which selection screens account by account. A plan over the group's
         * accounts is the plan over the pool but for the other groups' {@code rejected_group_scope} entries, which
         * a served request does not record; a refusal is planned over the whole pool, to name every account.
         */
        public PoolRoutes routesFor(GroupScope scope) {
            if (scope.includeFuture() || scope.include().size() != 1) {
                return routes;
            }
            return routes.group(scope.include().iterator().next());
        }

        /** One account patched and all its model rows replaced. */
        public View with(Account account, List<ModelState> rows) {
            Map<Long, Account> ids = new LinkedHashMap<>(byId);
            ids.put(account.id(), account);
            Map<ModelStateKey, ModelState> rowsByKey = new HashMap<>(models);
            rowsByKey.keySet().removeIf(k -> k.accountId() == account.id());
            rows.forEach(r -> rowsByKey.put(new ModelStateKey(r.accountId(), r.modelKey()), r));
            return new View(revision, List.copyOf(ids.values()), ids, rowsByKey, groups, keysByHash, apiKeys, served);
        }

        /** One group patched (S-9 halt or clear). */
        public View withGroup(GroupView group) {
            Map<Long, GroupView> copy = new HashMap<>(groups);
            copy.put(group.id(), group);
            return new View(revision, accounts, byId, models, copy, keysByHash, apiKeys, served, routes);
        }

        public List<ModelState> rowsOf(long accountId) {
            List<ModelState> rows = new ArrayList<>();
            for (ModelState s : models.values()) {
                if (s.accountId() == accountId) {
                    rows.add(s);
                }
            }
            return rows;
        }
    }

    /** Reads one reload makes without the write lock while patches keep racing them; then one under it. */
    static final int READS_WITHOUT_LOCK = 3;
    private final PoolStore store;
    private final ReentrantLock writes = new ReentrantLock();
    /** One reload at a time, so an older read never replaces a newer one; the request path never takes it. */
    private final ReentrantLock reloads = new ReentrantLock();
    /** Patches so far (own state changes, pending writes made durable); counted under {@code writes}. */
    private final AtomicLong patches = new AtomicLong();
    private volatile View view;
    private volatile UnaryOperator<View> overlay = UnaryOperator.identity();
    /** When the refresher last saw the database agree with this snapshot (D-1 readiness), monotonic. */
    private volatile long confirmedNanos = System.nanoTime();
    private final java.util.List<Runnable> reloadListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public PoolSnapshot(PoolStore store) {
        this.store = store;
        reload();
    }

    /** Smart keys: facts kept beside the pool (prices, blocks, spend) reload whenever the pool does. */
    public void onReload(Runnable listener) {
        reloadListeners.add(listener);
        listener.run();
    }

    public View view() {
        return view;
    }

    /** The decrypted upstream key, held in memory so the request path never reads the database (N-2). */
    public String apiKey(long accountId) {
        String key = view.apiKeys().get(accountId);
        return key == null ? "" : key;
    }

    /** Called every second by the refresher: a cheap revision read, a full reload only when it moved. */
    public void refreshIfChanged() {
        if (store.revision() != view.revision()) {
            reload();
        }
        confirmedNanos = System.nanoTime();
    }

    /** How long ago the database last confirmed this snapshot current (D-1: /readyz's bound). */
    public java.time.Duration age() {
        return java.time.Duration.ofNanos(System.nanoTime() - confirmedNanos);
    }

    /** D-1: what every reload re-applies on top of the loaded data (state changes not yet durable). */
    public void overlayWith(UnaryOperator<View> pending) {
        this.overlay = pending;
    }

    /**
     * Runs {@code work} holding the write lock (no reload's install or patch in between); counted as a patch, so
     * a reload whose read began before it reads again (StateWrites drops a durable write from the overlay here).
     */
    public void whileLocked(Runnable work) {
        writes.lock();
        try {
            patches.incrementAndGet();
            work.run();
        } finally {
            writes.unlock();
        }
    }

    /** Replaces the view by {@code change(view)} under the write lock (this instance's own state change). */
    public void update(UnaryOperator<View> change) {
        writes.lock();
        try {
            patches.incrementAndGet();
            view = change.apply(view);
        } finally {
            writes.unlock();
        }
    }

    /**
     * Reads the pool and installs it with the overlay of writes not yet durable. D-1: the database is read
     * without the write lock, so a request patching its own state change never waits on a slow or frozen
     * database (a read may take up to the driver's socket timeout). A patch made while the read ran may be
     * newer than what was read (a change whose write landed after the read and then left the overlay): that
     * read is not installed but made again. After {@link #READS_WITHOUT_LOCK} such races (a storm of state
     * changes on a database that answers) the last read holds the lock, as every read once did: a reload
     * always ends with the database's current pool, never with an older one.
     */
    public void reload() {
        reloads.lock();
        try {
            boolean installed = false;
            for (int read = 0; read < READS_WITHOUT_LOCK && !installed; read++) {
                long patchesBefore = patches.get();
                View loaded = viewOf(store.load());
                writes.lock();
                try {
                    if (patches.get() == patchesBefore) {
                        install(loaded);
                        installed = true;
                    }
                } finally {
                    writes.unlock();
                }
            }
            if (!installed) {
                writes.lock();
                try {
                    install(viewOf(store.load()));
                } finally {
                    writes.unlock();
                }
            }
        } finally {
            reloads.unlock();
        }
        reloadListeners.forEach(Runnable::run);
    }

    /** Under the write lock: the loaded pool with the writes not yet durable laid over it. */
    private void install(View loaded) {
        view = overlay.apply(loaded);
        confirmedNanos = System.nanoTime();
    }

    private static View viewOf(PoolStore.PoolData data) {
        Map<Long, Account> byId = new LinkedHashMap<>();
        data.accounts().forEach(a -> byId.put(a.id(), a));
        Map<ModelStateKey, ModelState> models = new HashMap<>();
        data.modelStates().forEach(s -> models.put(new ModelStateKey(s.accountId(), s.modelKey()), s));
        return new View(data.revision(), List.copyOf(byId.values()), byId, models, data.groups(),
                data.keysByHash(), data.apiKeys(), data.served());
    }

    /** Patches one account and replaces all its model rows (this instance's own write). */
    public void apply(PoolStore.StateChange change) {
        update(current -> current.with(change.account(), change.rows()));
    }

    /** S-9: patches one group (this instance's own halt write or clear). */
    public void applyGroup(GroupView group) {
        update(current -> current.withGroup(group));
    }
}
