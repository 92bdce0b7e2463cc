package dev.detour;

import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.MyBatisLoadStore;
import dev.detour.admin.SettingValues;
import dev.detour.admin.SiteSettings;
import dev.detour.gateway.LoadState;
import dev.detour.gateway.PoolSnapshot;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Load distribution and protection (S-4, S-6, S-7, S-9, C-6): the load state, kept in step with
 * the live settings, and the sweeper that drops expired session bindings every 5 minutes.
 */
record LoadWiring(LoadState state, ScheduledExecutorService sweeper) {
    private static final Logger log = LoggerFactory.getLogger(LoadWiring.class);

    static LoadWiring create(PoolSnapshot snapshot, Database database, SiteSettings settings, Clock clock,
            int instances) {
        LoadState load = new LoadState(snapshot, new MyBatisLoadStore(database));
        load.useInstances(instances); // S-5: each instance enforces its share
        Consumer<SettingValues> loadSettings = v -> {
            load.useSettings(v.selection());
            load.bindings().useTtl(v.stickyTtl()); // S-6 / U-5: live, no restart
        };
        loadSettings.accept(settings.current());
        settings.onChange(loadSettings);
        return new LoadWiring(load, sessionSweeper(load, clock));
    }

    /** Stops the sweep, then the bindings' own background work. */
    void close() {
        sweeper.shutdownNow();
        state.bindings().close();
    }

    private static ScheduledExecutorService sessionSweeper(LoadState load, Clock clock) {
        ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "detour-session-sweep");
            t.setDaemon(true);
            return t;
        });
        sweeper.scheduleWithFixedDelay(() -> {
            try {
                load.bindings().sweep(clock.instant());
            } catch (RuntimeException e) {
                log.warn("session binding sweep failed: {}", e.toString());
            }
        }, 5, 5, TimeUnit.MINUTES);
        return sweeper;
    }
}
