package dev.detour.adapter.metrics;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.gateway.live.PoolSnapshot;
import java.time.Instant;

/** The cooling gauges read from the in-memory pool (no database round trip on scrape). */
public final class SnapshotCooling implements Metrics.CoolingCounter {
    private final PoolSnapshot snapshot;

    public SnapshotCooling(PoolSnapshot snapshot) {
        this.snapshot = snapshot;
    }

    @Override
    public long accounts(Instant now) {
        return snapshot.view().accounts().stream().filter(a -> cooling(a, now)).count();
    }

    @Override
    public long models(Instant now) {
        return snapshot.view().models().values().stream().filter(m -> m.unavailableAt(now)).count();
    }

    static boolean cooling(Account account, Instant now) {
        Instant until = account.failure().blockedUntil();
        return until != null && until.isAfter(now);
    }

    static boolean unavailable(ModelState model, Instant now) {
        return model.unavailableAt(now);
    }
}
