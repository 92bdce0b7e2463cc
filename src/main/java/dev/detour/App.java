package dev.detour;

import dev.detour.adapter.api.Documents;
import dev.detour.adapter.api.HealthServlet;
import dev.detour.adapter.crypto.AdminToken;
import dev.detour.adapter.crypto.Secrets;
import dev.detour.adapter.db.AdminTokenBootstrap;
import dev.detour.adapter.db.AsyncEventWriter;
import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.EmbeddedMariaDb;
import dev.detour.adapter.db.MyBatisRequestEvents;
import dev.detour.adapter.db.MyBatisTransactions;
import dev.detour.adapter.db.StoredFailureScrub;
import dev.detour.adapter.metrics.Metrics;
import dev.detour.adapter.proxy.BodyBudget;
import dev.detour.adapter.proxy.Relay;
import dev.detour.adapter.web.ConsoleRoutes;
import dev.detour.adapter.web.ConsoleSessionAuth;
import dev.detour.admin.AccountRepository;
import dev.detour.admin.AuditLog;
import dev.detour.admin.ConsoleUsers;
import dev.detour.admin.Retention;
import dev.detour.admin.RetentionScheduler;
import dev.detour.admin.port.SettingValues;
import dev.detour.admin.SiteSettings;
import dev.detour.config.ClientLimits;
import dev.detour.config.ConfigException;
import dev.detour.config.DetourConfig;
import dev.detour.config.Switch;
import dev.detour.demo.DemoCredentials;
import dev.detour.demo.DemoMode;
import dev.detour.gateway.live.Leases;
import dev.detour.gateway.live.LoadDistribution;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.admission.SmartKeyFacts;
import dev.detour.gateway.live.StateRecorder;
import dev.detour.recovery.RecoveryScheduler;
import dev.detour.server.AnswerIdle;
import dev.detour.server.CarrierPriority;
import dev.detour.server.ClientGuards;
import dev.detour.server.ConnectionCap;
import dev.detour.server.ForwardedProtoCustomizer;
import dev.detour.server.JettyServer;
import dev.detour.server.MinimumBodyRate;
import dev.detour.server.front.FrontServer;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Composition root: builds every long-lived object once, by hand (no DI), and owns their
 * lifecycle. Start order: database → migrations → services → HTTP; stop in reverse. Each feature's
 * wiring lives in its own small piece ({@link GatewayWiring}, {@link RecoveryWiring}, ...).
 */
public final class App implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(App.class);

    private final DetourConfig config;
    private final Storage storage;
    private final AccountRepository accounts;
    private final SiteSettings settings;
    private final GatewayWiring gateway;
    private final ConsoleSessionAuth consoleAuth;
    private final Retention retention;
    private final RetentionScheduler housekeeping;
    private final RecoveryWiring recovery;
    private final AlertsWiring alerts;
    private final Optional<DemoMode> demo;
    private final Server server;
    /** N-8: the public port's reader for the relay's plain requests, or null (Jetty owns the port). */
    private final FrontServer front;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** D-3: how long requests whose upstream was cut at the end of the grace get to write their failure ending. */
    private static final Duration ABORTED_REQUESTS_END = Duration.ofSeconds(5);

    private App(DetourConfig config, Storage storage, Clock clock) {
        this.config = config;
        this.storage = storage;
        Database database = storage.database();
        Secrets secrets = Secrets.load(config);
        StoredFailureScrub.run(database.dataSource(), secrets.box()); // texts stored before masking existed
        MyBatisTransactions transactions = new MyBatisTransactions(database, secrets.box());
        this.accounts = new AccountRepository(transactions, secrets.box());
        AuditLog audit = new AuditLog(transactions, Documents.AUDIT, clock);
        // U-5 runtime settings: the gateway and housekeeping follow changes live
        this.settings = new SiteSettings(transactions, audit, clock,
                SettingValues.defaults(config.connectTimeout(), config.readTimeout()));
        this.gateway = GatewayWiring.create(config, database, secrets, settings, clock);
        // shared by the console and the admin API; X-4 caps its anonymous (sign-in form) sessions
        this.consoleAuth = ConsoleSessionAuth.standard(config.clientLimits().maxAnonymousSessions());
        // demo mode keeps its first-run password so every demo start can print it (DemoCredentials)
        Optional<DemoCredentials> demoLogin = config.demo() ? Optional.of(DemoCredentials.resolve(config, database))
                : Optional.empty();
        ConsoleUsers consoleUsers = ConsoleWiring.users(config, database, demoLogin, clock);
        this.retention = new Retention(new MyBatisRequestEvents(database), () -> settings.current().retentionDays(),
                Retention.DEFAULT_BATCH);
        this.housekeeping = new RetentionScheduler(retention, settings, clock, Duration.ofMinutes(5));
        AdminWiring admins = AdminWiring.create(database, transactions, accounts, secrets, audit, clock);
        AdminToken adminToken = AdminTokenBootstrap.establish(config.adminToken(), database, clock);
        this.recovery = RecoveryWiring.create(config, database, gateway, admins, settings, clock);
        this.alerts = AlertsWiring.create(database, secrets, gateway, recovery, clock,
                config.alertPrivateTargets()); // W-1
        Map<String, HttpServlet> routes = routes(database, adminToken, consoleUsers, admins, clock);
        // Demo mode: DETOUR_DEMO seeds a sample pool through the same admin use cases
        this.demo = demoLogin.map(login -> new DemoMode(admins.groups(), admins.accounts(), admins.keys(),
                gateway.snapshot()::reload, login));
        ClientGuards guards = clientGuards(config.clientLimits());
        Relay relay = gateway.relay(clock);
        boolean onFront = frontOn();
        this.server = JettyServer.newServer(config.bind(), config.port(), routes, gateway.relayOnJetty(relay),
                new ForwardedProtoCustomizer(gateway.proxies()::forwardedHttps), config.shutdownGrace(), guards,
                onFront);
        this.front = onFront ? new FrontServer(new InetSocketAddress(config.bind(), config.port()),
                gateway.relayOnFront(relay), JettyServer.handOff(server), guards.connections(),
                new MinimumBodyRate(guards.minRequestBytesPerSecond(), System::nanoTime), guards.requestTimeout(),
                AnswerIdle.ANSWER, JettyServer.PLATFORM_REQUEST_THREAD_PRIORITY) : null;
        if (front != null) {
            gateway.metrics().counter("detour_front_requests_total",
                    "Relay requests the front read and answered itself.", front::servedCount);
            gateway.metrics().counter("detour_front_handoffs_total",
                    "Connections the front passed to Jetty: a request outside its subset or for another path.",
                    front::handOffCount);
        }
    }

    /**
     * N-8: whether the front owns the public port: yes, unless {@code DETOUR_FRONT=0} (or {@code -Ddetour.front=false})
     * gives it back to Jetty alone, as before the front (a way back should the front misread a client).
     */
    static boolean frontOn() {
        return Switch.on("detour.front", "DETOUR_FRONT");
    }

    /** Every path the server answers: health, the relay, metrics, console pages and the admin API. */
    private Map<String, HttpServlet> routes(Database database, AdminToken adminToken, ConsoleUsers consoleUsers,
            AdminWiring admins, Clock clock) {
        Map<String, HttpServlet> routes = new LinkedHashMap<>();
        // D-1: /readyz reads the tracked database health, never waiting on the database itself
        HealthServlet health = new HealthServlet(() -> readiness(database), gateway.health(),
                gateway.snapshot()::age);
        routes.put("/healthz", health);
        routes.put("/readyz", health);
        gateway.addRoutes(routes, clock);
        routes.put("/metrics", AdminApiWiring.metrics(config, gateway, adminToken, clock));
        routes.putAll(ConsoleRoutes.recovery(consoleAuth, recovery.admin()));
        routes.putAll(ConsoleRoutes.instances(consoleAuth, gateway.load().registry()));
        dev.detour.adapter.api.PoolApi pool = AdminApiWiring.pool(admins, alerts, settings, clock); // W-2
        routes.putAll(ConsoleRoutes.pool(consoleAuth, pool));
        Map<String, HttpServlet> console = ConsoleWiring.pages(consoleAuth, consoleUsers, database, gateway, admins,
                recovery, settings, clock);
        routes.putAll(console);
        routes.put("/admin/api/*", AdminApiWiring.api(adminToken, consoleAuth, gateway, admins, recovery, settings,
                clock).withAlerts(alerts.channels()).withPoolTransfer(pool));
        routes.putAll(ConsoleRoutes.alerts(consoleAuth, alerts.channels()));
        routes.putAll(ConsoleWiring.smartPages(consoleAuth, console, database, gateway, admins, recovery, clock));
        // D-1: console pages show the outage banner; they and the admin API read this instance's own writes
        routes.replaceAll((path, servlet) -> operatorPage(path)
                ? new dev.detour.adapter.web.DatabaseNotice(servlet, gateway.health(), gateway.stateWrites())
                : servlet);
        return routes;
    }

    /** O-2 readiness, bounded (D-1): a ping that fails starts the outage at once, before the probe's next round. */
    private boolean readiness(Database database) {
        try {
            database.ping();
            gateway.health().answered();
        } catch (java.sql.SQLException | RuntimeException e) {
            gateway.health().failed(e);
            return false;
        }
        return database.migrationsApplied();
    }

    /** Console pages and the admin API (not the relay, health, metrics, assets or the public status page). */
    private static boolean operatorPage(String path) {
        return !(path.startsWith("/v1") || path.equals("/healthz") || path.equals("/readyz")
                || path.equals("/metrics") || path.startsWith("/assets") || path.equals("/status"));
    }

    /** the server's client timeouts and caps, each counted in /metrics. */
    private ClientGuards clientGuards(ClientLimits limits) {
        ConnectionCap connections = new ConnectionCap(limits.maxConnectionsPerAddress(), gateway.proxies()::isTrusted,
                AnswerIdle.ANSWER.toMillis());
        Metrics metrics = gateway.metrics();
        metrics.counter("detour_connections_refused_total",
                "Connections closed at open: their client address already had the most allowed.",
                connections::refusedCount);
        metrics.gauge("detour_anonymous_sessions", "Console sessions opened for the sign-in form, not signed in.",
                consoleAuth.anonymousSessions()::count);
        metrics.counter("detour_anonymous_sessions_evicted_total",
                "Anonymous console sessions ended early because their cap was reached.",
                consoleAuth.anonymousSessions()::evictedCount);
        BodyBudget bodies = gateway.bodies();
        metrics.gauge("detour_request_body_bytes", "Request body bytes buffered now (within the body budget).",
                bodies::used);
        metrics.counter("detour_body_budget_exhausted_total",
                "Requests answered 503 because buffering their body would pass the body budget.",
                bodies::exhaustedCount);
        return new ClientGuards(limits.requestTimeout(), limits.minRequestBytesPerSecond(), connections,
                consoleAuth.anonymousSessions());
    }

    /** Starts the database (embedded when no URL is configured), migrates, then serves HTTP. */
    public static App start(DetourConfig config, Clock clock) {
        Storage storage = Storage.open(config);
        App app = null;
        try {
            storage.database().migrate();
            app = new App(config, storage, clock);
            // JDK 21+: a request on a virtual thread runs at its carrier's priority, lowered as the platform ones
            CarrierPriority.lowerTo(JettyServer.PLATFORM_REQUEST_THREAD_PRIORITY);
            app.server.start();
            if (app.front != null) {
                app.front.start(JettyServer.ACCEPT_QUEUE);
            }
            app.recovery.scheduler().start(clock); // ticks on a daemon thread; only the lease holder acts
            app.alerts.ticker().start(); // W-1: pool watch and alert deliveries, every second
            app.gateway.load().register(config.bind(), app.port()); // G-2: first heartbeat now, then every 5 s
            log.info("Detour listening on http://{}:{}", config.bind(), app.port());
            int port = app.port();
            app.demo.ifPresent(d -> d.start(config.bind(), port));
            return app;
        } catch (Exception e) {
            if (app != null) {
                app.close();
            } else {
                storage.close();
            }
            if (e instanceof ConfigException refused) {
                throw refused; // O-1: one line naming the variable (e.g. demo mode on a real pool)
            }
            throw new IllegalStateException("Detour failed to start: " + e.getMessage(), e);
        }
    }

    public int port() {
        return front != null ? front.port() : JettyServer.port(server);
    }

    public Database database() {
        return storage.database();
    }

    /** Accounts as the gateway reads them (config, failure state, decrypted key by id). */
    public AccountRepository accounts() {
        return accounts;
    }

    public ConsoleSessionAuth consoleAuth() {
        return consoleAuth;
    }

    public PoolSnapshot snapshot() {
        return gateway.snapshot();
    }

    public SmartKeyFacts smartKeys() {
        return gateway.smartKeys();
    }

    public StateRecorder stateRecorder() {
        return gateway.stateRecorder();
    }

    public Leases leases() {
        return gateway.leases();
    }

    /** L-2: the wait queue (tests end due waits with {@link dev.detour.gateway.live.WaitQueue#expireDue()}). */
    public dev.detour.gateway.live.WaitQueue waitQueue() {
        return gateway.queue();
    }

    public LoadDistribution load() {
        return gateway.load().state();
    }

    /** G-2: this instance's heartbeat and the registry (tests stop its loop and call {@code beat(now)}). */
    public dev.detour.gateway.live.InstanceRegistry instances() {
        return gateway.load().registry();
    }

    public AsyncEventWriter events() {
        return gateway.events();
    }

    /** the recovery scheduler (tests stop its loop and call {@code tick(now)} themselves). */
    public RecoveryScheduler recovery() {
        return recovery.scheduler();
    }

    /** W-1: the alert thread (tests stop its loop and call {@code tick(now)} themselves). */
    public dev.detour.alerts.AlertTicker alerts() {
        return alerts.ticker();
    }

    /** D-1: whether MariaDB answers, as this instance last saw it. */
    public dev.detour.gateway.live.DatabaseHealth databaseHealth() {
        return gateway.health();
    }

    /** D-1: pool-state changes applied in memory and not yet written. */
    public dev.detour.gateway.live.StateWrites stateWrites() {
        return gateway.stateWrites();
    }

    public Metrics metrics() {
        return gateway.metrics();
    }

    public SiteSettings settings() {
        return settings;
    }

    public Retention retention() {
        return retention;
    }

    public DetourConfig config() {
        return config;
    }

    /** Demo mode's parts when {@code DETOUR_DEMO} is on (tests drive its trickle by hand). */
    public Optional<DemoMode> demo() {
        return demo;
    }

    /** D-3: from now on only {@link #close()} stops the embedded MariaDB, last (Main, once its own shutdown is installed). */
    void ownDatabaseStop() {
        storage.embedded().ifPresent(EmbeddedMariaDb::ownStop);
    }

    /**
     * D-3 (O-5): stop accepting → drain requests and streams within the grace → end the streams still open
     * as visible failures (their events recorded) → stop the background work → flush the events → release
     * the leader lease → close the pool → stop the embedded MariaDB last. Every step that writes runs while
     * the database is still there.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        demo.ifPresent(DemoMode::close); // the demo's own traffic stops first
        recovery.stopWork(); // no new probe while draining; the lease stays held until the events are flushed
        gateway.queue().close(); // L-2: waiting requests get their 503 now instead of holding the drain
        if (!drain(config.shutdownGrace())) {
            // D-3: past the grace, the upstream exchanges still open are cut: each relay then ends its client's
            // stream in the protocol's failure form (F-4') and records its event while the client still listens
            log.warn("requests still in flight after the shutdown grace of {} s: ending them as failures",
                    config.shutdownGrace().toSeconds());
            closeUpstream();
            if (!drain(ABORTED_REQUESTS_END)) {
                log.warn("requests still in flight {} s after their upstreams were cut: closing their connections",
                        ABORTED_REQUESTS_END.toSeconds());
            }
        }
        try {
            server.setStopTimeout(ABORTED_REQUESTS_END.toMillis()); // drained above: nothing left to wait for
            server.stop();
        } catch (Exception e) {
            log.warn("HTTP server did not stop cleanly: {}", e.toString());
        }
        if (front != null) {
            front.close(); // idle keep-alive connections, as Jetty's stop closed its own
        }
        housekeeping.close();
        alerts.ticker().close(); // W-1: pending deliveries are rows; the next start sends them
        gateway.refresher().close();
        gateway.load().close(); // G-2: drained, so the registry row goes and the others take this share at once
        closeUpstream();
        gateway.stateWrites().close(); // D-1: state applied in memory reaches the database before the pool closes
        gateway.events().close(); // flushes the queue (D-2: what cannot be written stays in the journal)
        gateway.smartStore().close(); // writes the queued response bindings
        gateway.quickReads().close();
        recovery.close(); // releases the leader lease: another instance may lead at once
        gateway.probe().close();
        storage.close(); // the pool, then the embedded server
    }

    /** D-3: both readers of the public port stop accepting, then wait (together at most {@code grace}). */
    private boolean drain(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        boolean frontDrained = front == null || front.drain(grace);
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        return JettyServer.drain(server, left) && frontDrained;
    }

    private void closeUpstream() {
        try {
            gateway.upstream().close();
        } catch (Exception e) {
            log.warn("upstream client did not close cleanly: {}", e.toString());
        }
    }
}
