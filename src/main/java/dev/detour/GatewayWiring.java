package dev.detour;

import dev.detour.adapter.crypto.Secrets;
import dev.detour.adapter.journal.FileStateJournal;
import dev.detour.adapter.db.AsyncEventWriter;
import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.DatabaseProbe;
import dev.detour.adapter.db.MyBatisKeyLimitStore;
import dev.detour.adapter.db.MyBatisPoolStore;
import dev.detour.adapter.db.MyBatisSmartStore;
import dev.detour.adapter.security.AuthThrottle;
import dev.detour.adapter.metrics.Metrics;
import dev.detour.adapter.metrics.MetricsEventSink;
import dev.detour.adapter.metrics.SnapshotCooling;
import dev.detour.adapter.proxy.BodyBudget;
import dev.detour.adapter.proxy.ProxyHandler;
import dev.detour.adapter.proxy.Relay;
import dev.detour.adapter.proxy.RelayOnFront;
import dev.detour.adapter.proxy.TrustedProxies;
import dev.detour.adapter.api.StatusServlet;
import dev.detour.adapter.upstream.Http1UpstreamClient;
import dev.detour.admin.SiteSettings;
import dev.detour.config.DetourConfig;
import dev.detour.core.account.Account;
import dev.detour.core.selection.SelectionPipeline;
import dev.detour.gateway.ConfigErrors;
import dev.detour.gateway.live.DatabaseHealth;
import dev.detour.gateway.Forwarder;
import dev.detour.gateway.admission.KeyLimiter;
import dev.detour.gateway.live.Leases;
import dev.detour.gateway.live.LoadDistribution;
import dev.detour.gateway.port.Pauser;
import dev.detour.gateway.port.PendingState;
import dev.detour.gateway.live.PoolRefresher;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.live.QuickReads;
import dev.detour.gateway.Router;
import dev.detour.gateway.admission.SmartKeyFacts;
import dev.detour.gateway.live.StateRecorder;
import dev.detour.gateway.live.StateWrites;
import dev.detour.gateway.live.WaitQueue;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The gateway (SPEC §2–§5): snapshot, upstream client, failure engine, async events, smart keys
 * and load state, wired once for {@link App}.
 */
record GatewayWiring(MyBatisPoolStore poolStore, PoolSnapshot snapshot, PoolRefresher refresher,
        AsyncEventWriter events, MetricsEventSink countedEvents, Http1UpstreamClient upstream, Leases leases,
        Metrics metrics, StateRecorder stateRecorder, MyBatisSmartStore smartStore, SmartKeyFacts smartKeys,
        LoadWiring load, Router router, Forwarder forwarder, TrustedProxies proxies, AuthThrottle keyFailures,
        AuthThrottle tokenFailures, BodyBudget bodies, DatabaseHealth health, StateWrites stateWrites,
        DatabaseProbe probe, QuickReads quickReads, WaitQueue queue) {

    static GatewayWiring create(DetourConfig config, Database database, Secrets secrets, SiteSettings settings,
            Clock clock) {
        MyBatisPoolStore poolStore = new MyBatisPoolStore(database, secrets.box());
        PoolSnapshot snapshot = new PoolSnapshot(poolStore);
        // D-1: the request path never waits on MariaDB; state writes queue behind it, outages are tracked
        DatabaseHealth health = new DatabaseHealth(clock);
        // D-2: events go through a journal under the data dir (a slot per running instance)
        AsyncEventWriter events = new AsyncEventWriter(database, 10_000, config.dataDir().resolve("journal"),
                config.journalMemory().orElse(null));
        // D-1: state changes not yet written are journaled in the same slot; what a crashed run left is replayed
        FileStateJournal stateJournal = FileStateJournal.open(events.journalDir());
        StateWrites stateWrites = new StateWrites(health, snapshot, stateJournal);
        DatabaseProbe probe = new DatabaseProbe(database, health);
        probe.every(Duration.ofHours(1), health,
                () -> poolStore.forgetWriteIds(clock.instant().minus(Duration.ofDays(1))));
        QuickReads quickReads = QuickReads.bounded(health);
        PoolRefresher refresher = new PoolRefresher(snapshot, health);
        var upstream = new Http1UpstreamClient(config.connectTimeout(), config.readTimeout());
        Leases leases = new Leases();
        // U-5 runtime settings: applied live (upstream timeouts now; others read settings.current())
        settings.onChange(v -> upstream.setTimeouts(v.connectTimeout(), v.readTimeout()));
        // O-2: every event the Forwarder emits is counted on its way to the writer
        Metrics metrics = new Metrics(new Metrics.Gauges(leases::total, new SnapshotCooling(snapshot), events::depth,
                events::dropped));
        metrics.gauge("detour_event_journal_spilled", "1 while newer request events wait in the local journal only"
                + " (the database was away longer than the memory queue lasts); 0 otherwise.",
                () -> events.spilled() ? 1 : 0); // D-2
        metrics.counter("detour_events_written_total", "Request events this instance wrote to the database (D-2: with"
                + " the queue depth and the journal gauge, where its events are).", events::written);
        MetricsEventSink countedEvents = new MetricsEventSink(events, metrics);
        ConfigErrors configErrors = new ConfigErrors(); // D-4: one log line per transition, and a gauge
        snapshot.onReload(() -> configErrors.observe(snapshot.view()));
        metrics.gauge("detour_config_errors", "Accounts and keys whose stored configuration cannot be read "
                + "(config_error, out of service).", configErrors::count);
        metrics.gauge("detour_database_up", "1 while MariaDB answers, 0 during an outage (D-1).",
                () -> health.available() ? 1 : 0);
        metrics.gauge("detour_database_unavailable_seconds", "Seconds since the current database outage began;"
                + " 0 while it answers.", health::outageSeconds);
        metrics.gauge("detour_state_writes_pending", "Pool-state changes applied in memory, not yet in MariaDB.",
                stateWrites::pending);
        StateRecorder stateRecorder = new StateRecorder(poolStore, snapshot, stateWrites);
        metrics.counter("detour_escalations_written_total", "C-3 account cooldowns escalated from a model failure"
                + " that this instance wrote to the database (summed over the instances: the escalations).",
                stateRecorder::escalationsWritten);
        // Smart keys: prices, blocks, spend, response bindings, route stats beside the snapshot
        MyBatisSmartStore smartStore = new MyBatisSmartStore(database);
        SmartKeyFacts smartKeys = new SmartKeyFacts(smartStore, new KeyLimiter(clock));
        smartKeys.readThrough(quickReads);
        snapshot.onReload(smartKeys::reload);
        snapshot.onReload(settings::refresh); // G-3: a settings change elsewhere moved the revision
        probe.every(Duration.ofSeconds(1), health, smartKeys::refreshSpend); // G-3: other instances' spend
        LoadWiring load = LoadWiring.create(snapshot, database, settings, clock, config.instances());
        load.state().deferWritesTo(stateWrites);
        // L-1 / L-4: per-key limits counted once for the cluster, shared on the spend read's one-second beat
        smartKeys.limits().shareThrough(new MyBatisKeyLimitStore(database),
                n -> load.state().capacityShare((int) Math.min(n, Integer.MAX_VALUE)));
        probe.every(Duration.ofSeconds(1), health, smartKeys.limits()::sync);
        metrics.gauge("detour_instances_live", "Detour instances live in the registry at this instance's last"
                + " heartbeat, this one included (G-2).", load.registry()::liveCount);
        replay(stateJournal.leftovers(), stateRecorder, load.state());
        load.state().bindings().readThrough(quickReads);
        Router router = new Router(new SelectionPipeline(), Router.THREAD_RANDOM, smartKeys, load.state());
        // L-2: a request whose every route is full waits for a lease within the site's queue settings
        WaitQueue queue = new WaitQueue(leases, () -> settings.current().queueLimits(), clock);
        metrics.gauge("detour_queue_waiting", "Requests waiting in the queue for a route below its in-flight limit"
                + " (L-2), every model together.", queue::waiting);
        snapshot.onReload(() -> queue.recheck(id -> { // L-2: a raised max_in_flight serves those waiting first
            Account account = snapshot.view().byId().get(id);
            return account == null ? null : router.capacityShare(account.maxInFlight());
        }));
        Forwarder forwarder = new Forwarder(snapshot, router, upstream, stateRecorder, leases, countedEvents,
                snapshot::apiKey, Pauser.SLEEP, clock, smartKeys, load.state(), queue);
        TrustedProxies proxies = new TrustedProxies(config.trustedProxies()); // O-3
        BodyBudget bodies = new BodyBudget(config.clientLimits().bodyBudgetBytes());
        // wrong Detour keys (/v1, /v1/detour, /my/login) and wrong admin tokens (/admin/api, /metrics)
        return new GatewayWiring(poolStore, snapshot, refresher, events, countedEvents, upstream, leases, metrics,
                stateRecorder, smartStore, smartKeys, load, router, forwarder, proxies,
                AuthThrottle.standard("Detour key", clock), AuthThrottle.standard("admin token", clock), bodies,
                health, stateWrites, probe, quickReads, queue);
    }

    /** The public status page (C-7). */
    void addRoutes(Map<String, HttpServlet> routes, Clock clock) {
        routes.put("/status", new StatusServlet(snapshot, leases::inFlight, clock));
    }

    /** The client-facing relay's door: {@code /v1} but {@code /v1/detour}. */
    Relay relay(Clock clock) {
        return new Relay(forwarder, clock, keyFailures, bodies);
    }

    /** The relay for the requests Jetty reads: a core handler in front of the servlets. */
    ProxyHandler relayOnJetty(Relay relay) {
        return new ProxyHandler(relay, proxies);
    }

    /** N-8: the relay for the requests the front reads itself. */
    RelayOnFront relayOnFront(Relay relay) {
        return new RelayOnFront(relay, proxies);
    }

    /** D-1: what a crashed (or outage-stopped) run applied in memory but never wrote, oldest first. */
    private static void replay(List<PendingState> leftovers, StateRecorder recorder, LoadDistribution load) {
        for (PendingState change : leftovers) {
            if (change instanceof PendingState.GroupHalt halt) {
                load.replay(halt);
            } else {
                recorder.replay(change);
            }
        }
    }
}
