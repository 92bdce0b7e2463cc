package dev.detour.gateway;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.selection.GroupView;
import dev.detour.core.selection.ModelStateKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The in-memory pool every selection reads (N-2, O-4): accounts, model rows, groups and keys.
 * Replaced wholesale when the database revision moves (other instances, admin changes), and
 * patched at once by this instance's own state writes. Readers never lock.
 */
public final class PoolSnapshot {
    public record View(long revision, List<Account> accounts, Map<Long, Account> byId,
            Map<ModelStateKey, ModelState> models, Map<Long, GroupView> groups, Map<String, KeyEntry> keysByHash,
            Map<Long, String> apiKeys) {

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
            view = new View(data.revision(), List.copyOf(byId.values()), byId, models, data.groups(),
                    data.keysByHash(), data.apiKeys());
        } finally {
            writes.unlock();
        }
        reloadListeners.forEach(Runnable::run);
    }

    /** Patches one account and replaces all its model rows (this instance's own write). */
    public void apply(PoolStore.StateChange change) {
        writes.lock();
        try {
            View current = view;
            Map<Long, Account> byId = new LinkedHashMap<>(current.byId());
            byId.put(change.account().id(), change.account());
            Map<ModelStateKey, ModelState> models = new HashMap<>(current.models());
            models.keySet().removeIf(k -> k.accountId() == change.account().id());
            change.rows().forEach(s -> models.put(new ModelStateKey(s.accountId(), s.modelKey()), s));
            view = new View(current.revision(), List.copyOf(byId.values()), byId, models, current.groups(),
                    current.keysByHash(), current.apiKeys());
        } finally {
            writes.unlock();
        }
    }

    /** S-9: patches one group (this instance's own halt write or clear). */
    public void applyGroup(GroupView group) {
        writes.lock();
        try {
            View current = view;
            Map<Long, GroupView> groups = new HashMap<>(current.groups());
            groups.put(group.id(), group);
            view = new View(current.revision(), current.accounts(), current.byId(), current.models(), groups,
                    current.keysByHash(), current.apiKeys());
        } finally {
            writes.unlock();
        }
    }
}
