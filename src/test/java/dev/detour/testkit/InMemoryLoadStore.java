package dev.detour.testkit;

import dev.detour.core.selection.GroupView;
import dev.detour.gateway.port.LoadStore;
import dev.detour.gateway.port.SessionBinding;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Session bindings (S-6) and group halts (S-9) in memory, for tests of the gateway without a database. */
public final class InMemoryLoadStore implements LoadStore {
    private record Key(long keyId, String sessionHash, String model) {
    }

    private final Map<Key, SessionBinding> bindings = new HashMap<>();
    private final Map<Long, GroupView> halts = new HashMap<>();

    @Override
    public synchronized SessionBinding findBinding(long keyId, String sessionHash, String model) {
        return bindings.get(new Key(keyId, sessionHash, model));
    }

    @Override
    public synchronized void upsertBinding(SessionBinding binding) {
        bindings.put(new Key(binding.keyId(), binding.sessionHash(), binding.model()), binding);
    }

    @Override
    public synchronized void deleteBinding(long keyId, String sessionHash, String model, long accountId) {
        bindings.computeIfPresent(new Key(keyId, sessionHash, model), (k, b) -> b.accountId() == accountId ? null : b);
    }

    @Override
    public synchronized int deleteExpiredBindings(Instant now) {
        int before = bindings.size();
        bindings.values().removeIf(b -> !b.expiresAt().isAfter(now));
        return before - bindings.size();
    }

    @Override
    public synchronized GroupView writeHalt(GroupView group, Instant until, int streak, String reason, Instant now) {
        GroupView halted = group.withHalt(until, streak, reason);
        halts.put(group.id(), halted);
        return halted;
    }

    /** The halts written so far, by group. */
    public synchronized List<GroupView> halts() {
        return List.copyOf(halts.values());
    }
}
