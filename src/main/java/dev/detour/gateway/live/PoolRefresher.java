package dev.detour.gateway.live;

import dev.detour.gateway.port.DatabaseUnavailable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** O-4: re-reads the pool when another instance (or an admin change) moved the revision, every second. */
public final class PoolRefresher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PoolRefresher.class);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "detour-pool-refresh");
        t.setDaemon(true);
        return t;
    });

    public PoolRefresher(PoolSnapshot snapshot) {
        this(snapshot, DatabaseHealth.alwaysUp());
    }

    /** D-1: a refresh the database does not answer marks an outage (logged once there), not a line per second. */
    public PoolRefresher(PoolSnapshot snapshot, DatabaseHealth health) {
        timer.scheduleWithFixedDelay(() -> {
            try {
                snapshot.refreshIfChanged();
                health.answered();
            } catch (RuntimeException e) {
                if (DatabaseUnavailable.isBehind(e)) {
                    health.failed(e);
                } else {
                    log.warn("pool refresh failed, keeping the last snapshot: {}", e.toString());
                }
            }
        }, 1, 1, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
