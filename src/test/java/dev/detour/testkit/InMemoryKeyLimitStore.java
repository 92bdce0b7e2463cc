package dev.detour.testkit;

import dev.detour.core.keys.LimitKind;
import dev.detour.gateway.port.KeyLimitStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Detour's own {@link KeyLimitStore} port in memory: the shared per-key counts several limiters add to. */
public final class InMemoryKeyLimitStore implements KeyLimitStore {
    private record Slot(long keyId, LimitKind kind, long bucket) {
    }

    private final Map<Slot, Long> totals = new ConcurrentHashMap<>();

    @Override
    public void add(List<Count> deltas) {
        deltas.forEach(d -> totals.merge(new Slot(d.keyId(), d.kind(), d.bucket()), d.amount(), Long::sum));
    }

    @Override
    public List<Count> all() {
        List<Count> out = new ArrayList<>();
        totals.forEach((s, n) -> out.add(new Count(s.keyId(), s.kind(), s.bucket(), n)));
        return out;
    }

    @Override
    public void forgetBefore(LimitKind kind, long bucket) {
        totals.keySet().removeIf(s -> s.kind() == kind && s.bucket() < bucket);
    }

    public int size() {
        return totals.size();
    }
}
