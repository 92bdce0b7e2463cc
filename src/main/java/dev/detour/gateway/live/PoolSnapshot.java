package dev.detour.gateway.live;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.selection.GroupView;
import dev.detour.core.selection.ModelStateKey;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.port.PoolStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The in-memory pool every selection reads (N-2, O-4): accounts, model rows, groups and keys.
 * Replaced wholesale when the database revision moves (other instances, admin changes), and
 * patched at once by this instance's own state writes. Readers never lock.
 */
public final class PoolSnapshot {
    /** {@code served}: model keys each account served lately (C-3's denominator for accounts without mappings). */
    public record View(long revision, List<Account> accounts, Map<Long, Account> byId,
            Map<ModelStateKey, ModelState> models, Map<Long, GroupView> groups, Map<String, KeyEntry> keysByHash,
            Map<Long, String> apiKeys, Map<Long, Set<String>> served) {

        public Set<String> servedBy(long accountId) {
            return served.getOrDefault(accountId, Set.of());
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
            return new View(revision, accounts, byId, models, copy, keysByHash, apiKeys, served);
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

    private final PoolStore store;
    private final ReentrantLock writes = new ReentrantLock();
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

    /** Runs {@code work} holding the write lock (no reload or patch in between). */
    public void whileLocked(Runnable work) {
        writes.lock();
        try {
            work.run();
        } finally {
            writes.unlock();
        }
    }

    /** Replaces the view by {@code change(view)} under the write lock (this instance's own state change). */
    public void update(UnaryOperator<View> change) {
        writes.lock();
        try {
            view = change.apply(view);
        } finally {
            writes.unlock();
        }
    }

    /** Reloads under the write lock so a concurrent own-write patch is never overwritten by older data. */
    public void reload() {
        writes.lock();
        try {
            PoolStore.PoolData data = store.load();
            Map<Long, Account> byId = new LinkedHashMap<>();
            data.accounts().forEach(a -> byId.put(a.id(), a));
            Map<ModelStateKey, ModelState> models = new HashMap<>();
            data.modelStates().forEach(s -> models.put(new ModelStateKey(s.accountId(), s.modelKey()), s));
            view = overlay.apply(new View(data.revision(), List.copyOf(byId.values()), byId, models, data.groups(),
                    data.keysByHash(), data.apiKeys(), data.served()));
            confirmedNanos = System.nanoTime();
        } finally {
            writes.unlock();
        }
        reloadListeners.forEach(Runnable::run);
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
