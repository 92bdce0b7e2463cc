package dev.detour.admin;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The housekeeping thread: re-reads the settings (other instances' changes) and purges old events. */
public final class RetentionScheduler implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RetentionScheduler.class);
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "detour-housekeeping");
        t.setDaemon(true);
        return t;
    });

    public RetentionScheduler(Retention retention, SiteSettings settings, Clock clock, Duration every) {
        executor.scheduleWithFixedDelay(() -> {
            try {
                settings.refresh();
                Retention.Result result = retention.purge(clock.instant());
                if (result.deleted() > 0) {
                    log.info("retention: deleted {} request events in {} batches", result.deleted(), result.batches());
                }
            } catch (RuntimeException e) {
                log.warn("housekeeping failed: {}", e.toString());
            }
        }, every.toSeconds(), every.toSeconds(), TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
