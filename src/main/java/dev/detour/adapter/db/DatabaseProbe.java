package dev.detour.adapter.db;

import dev.detour.gateway.live.DatabaseHealth;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * D-1: pings MariaDB every second and tells {@link DatabaseHealth} whether it answered, so an outage
 * is noticed within about a second plus the pool's acquire bound even when no write is pending,
 * and its end as soon as the database answers. Also runs the hourly chores of the state ledger.
 */
public final class DatabaseProbe implements AutoCloseable {
    public static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Logger log = LoggerFactory.getLogger(DatabaseProbe.class);
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "detour-db-probe");
        t.setDaemon(true);
        return t;
    });

    public DatabaseProbe(Database database, DatabaseHealth health) {
        timer.scheduleWithFixedDelay(() -> {
            try {
                database.ping();
                health.answered();
            } catch (SQLException | RuntimeException e) {
                health.failed(e);
            }
        }, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs {@code chore} every {@code period} while the database answers (failures are logged, not fatal). */
    public void every(Duration period, DatabaseHealth health, Runnable chore) {
        timer.scheduleWithFixedDelay(() -> {
            if (!health.available()) {
                return;
            }
            try {
                chore.run();
            } catch (RuntimeException e) {
                log.warn("database chore failed: {}", e.toString());
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
