package dev.detour;

import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.MyBatisInstanceStore;
import dev.detour.adapter.db.MyBatisLoadStore;
import dev.detour.admin.port.SettingValues;
import dev.detour.admin.SiteSettings;
import dev.detour.gateway.live.InstanceRegistry;
import dev.detour.gateway.live.LoadDistribution;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.config.DetourConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Load distribution and protection (S-4, S-6, S-7, S-9, C-6): the load state, kept in step with
 * the live settings, the sweeper that drops expired session bindings every 5 minutes, and the
 * instance registry (G-2) that sets this instance's share of max_in_flight.
 */
record LoadWiring(LoadDistribution state, ScheduledExecutorService sweeper, InstanceRegistry registry) {
    private static final Logger log = LoggerFactory.getLogger(LoadWiring.class);

    static LoadWiring create(PoolSnapshot snapshot, Database database, SiteSettings settings, Clock clock,
            int instances) {
        LoadDistribution load = new LoadDistribution(snapshot, new MyBatisLoadStore(database));
        load.useInstances(instances); // S-5: each instance enforces its share
        // G-2: the live count decides unless DETOUR_INSTANCES pins one (2 or more; 1 is the default)
        InstanceRegistry registry = new InstanceRegistry(new MyBatisInstanceStore(database), load, clock, version(),
                instances > DetourConfig.SINGLE_INSTANCE);
        Consumer<SettingValues> loadSettings = v -> {
            load.useSettings(v.selection());
            load.bindings().useTtl(v.stickyTtl()); // S-6 / U-5: live, no restart
        };
        loadSettings.accept(settings.current());
        settings.onChange(loadSettings);
        return new LoadWiring(load, sessionSweeper(load, clock), registry);
    }

    /** Stops the sweep, then the bindings' own background work; leaves the registry (G-2, after the drain). */
    void close() {
        sweeper.shutdownNow();
        state.bindings().close();
        registry.close();
    }

    /** G-2: registers this instance under the address it serves on (the host name when bound to every address). */
    void register(String bind, int port) {
        String host = bind;
        if (bind.equals("0.0.0.0") || bind.equals("::") || bind.isEmpty()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = bind;
            }
        }
        registry.start(host + ":" + port);
    }

    /** The jar's Implementation-Version (the pom's version); "dev" when run from classes. */
    private static String version() {
        String version = LoadWiring.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }

    private static ScheduledExecutorService sessionSweeper(LoadDistribution load, Clock clock) {
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
