package dev.detour;

import dev.detour.recovery.ConsoleModelTest;
import java.util.regex.Pattern;
import dev.detour.adapter.web.PathSplitServlet;
import dev.detour.adapter.api.AdminApiServlet;
import dev.detour.adapter.api.AdminAuthenticator;
import dev.detour.adapter.api.BearerTokenAuthenticator;
import dev.detour.adapter.api.HealthServlet;
import dev.detour.adapter.api.StatusServlet;
import dev.detour.adapter.crypto.AdminToken;
import dev.detour.adapter.crypto.PasswordHasher;
import dev.detour.adapter.crypto.Secrets;
import dev.detour.adapter.db.AsyncEventWriter;
import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.EmbeddedMariaDb;
import dev.detour.adapter.db.MyBatisAccountsPageSource;
import dev.detour.adapter.db.MyBatisLoadStore;
import dev.detour.adapter.db.MyBatisPoolStore;
import dev.detour.adapter.db.MyBatisRecoveryStore;
import dev.detour.adapter.db.MyBatisSmartStore;
import dev.detour.adapter.metrics.Metrics;
import dev.detour.adapter.metrics.MetricsEventSink;
import dev.detour.adapter.metrics.MetricsServlet;
import dev.detour.adapter.metrics.SnapshotCooling;
import dev.detour.adapter.proxy.ClientAddress;
import dev.detour.adapter.proxy.ProxyServlet;
import dev.detour.adapter.proxy.TrustedProxies;
import dev.detour.adapter.upstream.HttpClient5UpstreamClient;
import dev.detour.adapter.web.ConsolePool;
import dev.detour.adapter.web.ConsoleRoutes;
import dev.detour.adapter.web.ConsoleSessionAuth;
import dev.detour.adapter.web.OperatingPages;
import dev.detour.adapter.web.SmartRoutes;
import dev.detour.admin.AccountAdmin;
import dev.detour.admin.AccountBoard;
import dev.detour.admin.AccountRepository;
import dev.detour.admin.AccountStateView;
import dev.detour.admin.AdminTokenBootstrap;
import dev.detour.admin.AuditLog;
import dev.detour.admin.BlockAdmin;
import dev.detour.admin.ConsoleUsers;
import dev.detour.admin.Dashboard;
import dev.detour.admin.GroupAdmin;
import dev.detour.admin.KeyAdmin;
import dev.detour.admin.LoginThrottle;
import dev.detour.admin.PriceAdmin;
import dev.detour.admin.RecoveryAdmin;
import dev.detour.admin.ModelAdmin;
import dev.detour.admin.ModelTestAction;
import dev.detour.admin.RequestLog;
import dev.detour.admin.Retention;
import dev.detour.admin.RetentionScheduler;
import dev.detour.admin.SettingValues;
import dev.detour.admin.SiteSettings;
import dev.detour.config.ConfigException;
import dev.detour.config.DetourConfig;
import dev.detour.demo.DemoCredentials;
import dev.detour.demo.DemoMode;
import dev.detour.core.selection.SelectionPipeline;
import dev.detour.gateway.Forwarder;
import dev.detour.gateway.Leases;
import dev.detour.gateway.LoadState;
import dev.detour.gateway.Pauser;
import dev.detour.gateway.PoolRefresher;
import dev.detour.gateway.PoolSnapshot;
import dev.detour.gateway.Router;
import dev.detour.gateway.SmartKeys;
import dev.detour.gateway.StateRecorder;
import dev.detour.recovery.LeaderLease;
import dev.detour.recovery.ModelTester;
import dev.detour.recovery.ProbeBudget;
import dev.detour.recovery.RouteChecks;
import dev.detour.recovery.RecoveryScheduler;
import dev.detour.server.ForwardedProtoCustomizer;
import dev.detour.server.JettyServer;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.eclipse.jetty.server.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Composition root: builds every long-lived object once, by hand (no DI), and owns their
 * lifecycle. Start order: database → migrations → services → HTTP; stop in reverse.
 */
public final class App implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(App.class);

    private final DetourConfig config;
    private final Optional<EmbeddedMariaDb> embedded;
    private final Database database;
    private final ConsoleSessionAuth consoleAuth;
    private final Server server;
    private final AccountRepository accounts;
    private final PoolSnapshot snapshot;
    private final PoolRefresher refresher;
    private final AsyncEventWriter events;
    private final HttpClient5UpstreamClient upstream;
    private final Leases leases;
    private final StateRecorder stateRecorder;
    private final MyBatisSmartStore smartStore;
    private final SmartKeys smartKeys;
    private final RecoveryScheduler recovery;
    private final ExecutorService probeExecutor;
    private final Metrics metrics;
    private final SiteSettings settings;
    private final Retention retention;
    private final RetentionScheduler housekeeping;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    private final LoadState load;
    private final java.util.concurrent.ScheduledExecutorService sweeper;
    private final Optional<DemoMode> demo;

    private App(DetourConfig config, Optional<EmbeddedMariaDb> embedded, Database database, Clock clock) {
        this.config = config;
        this.embedded = embedded;
        this.database = database;
        Map<String, HttpServlet> routes = new LinkedHashMap<>();
        HealthServlet health = new HealthServlet(database::ready);
        routes.put("/healthz", health);
        routes.put("/readyz", health);
        Secrets secrets = Secrets.load(config);
        this.accounts = new AccountRepository(database, secrets.box());
        AuditLog audit = new AuditLog(database, clock);

        // the gateway (SPEC §2–§5): snapshot, upstream client, failure engine, async events
        MyBatisPoolStore poolStore = new MyBatisPoolStore(database, secrets.box());
        this.snapshot = new PoolSnapshot(poolStore);
        this.refresher = new PoolRefresher(snapshot);
        this.events = new AsyncEventWriter(database, 10_000);
        this.upstream = new HttpClient5UpstreamClient(config.connectTimeout(), config.readTimeout());
        this.leases = new Leases();
        // U-5 runtime settings: applied live (upstream timeouts now; others read settings.current())
        this.settings = new SiteSettings(database, audit, clock,
                SettingValues.defaults(config.connectTimeout(), config.readTimeout()));
        settings.onChange(v -> upstream.setTimeouts(v.connectTimeout(), v.readTimeout()));
        // O-2: every event the Forwarder emits is counted on its way to the writer
        this.metrics = new Metrics(new Metrics.Gauges(leases::total, new SnapshotCooling(snapshot), events::depth,
                events::dropped));
        MetricsEventSink countedEvents = new MetricsEventSink(events, metrics);
        this.stateRecorder = new StateRecorder(poolStore, snapshot);
        // issue 6 smart keys: prices, blocks, spend, response bindings, route stats beside the snapshot
        this.smartStore = new MyBatisSmartStore(database);
        this.smartKeys = new SmartKeys(smartStore);
        snapshot.onReload(smartKeys::reload);
        // load distribution and protection (S-4, S-6, S-7, S-9, C-6): bindings swept every 5 min
        this.load = new LoadState(snapshot, new MyBatisLoadStore(database));
        load.useInstances(instancesFromEnvironment()); // S-5: each instance enforces its share
        java.util.function.Consumer<SettingValues> loadSettings = v -> {
            load.useSettings(v.selection());
            load.bindings().useTtl(v.stickyTtl()); // S-6 / U-5: live, no restart
        };
        loadSettings.accept(settings.current());
        settings.onChange(loadSettings);
        this.sweeper = sessionSweeper(load, clock);
        Router router = new Router(new SelectionPipeline(), null, smartKeys, load);
        Forwarder forwarder = new Forwarder(snapshot, router, upstream, stateRecorder, leases, countedEvents,
                snapshot::apiKey, Pauser.SLEEP, clock, smartKeys, load);
        TrustedProxies proxies = new TrustedProxies(config.trustedProxies()); // O-3
        routes.put("/v1/*", new ProxyServlet(forwarder, clock, proxies));
        routes.put("/status", new StatusServlet(snapshot, leases::inFlight, clock)); // C-7, public

        // U-1 console: first-run admin, session + CSRF (consoleAuth is shared with the admin API)
        this.consoleAuth = ConsoleSessionAuth.standard();
        ConsoleUsers consoleUsers = new ConsoleUsers(database, new PasswordHasher(), clock, LoginThrottle.standard(clock));
        // demo mode keeps its first-run password so every demo start can print it (DemoCredentials)
        Optional<DemoCredentials> demoLogin = config.demo() ? Optional.of(DemoCredentials.resolve(config, database))
                : Optional.empty();
        consoleUsers.ensureFirstAdmin(demoLogin.map(DemoCredentials::firstAdminPassword).orElse(config.adminPassword()));
        this.retention = new Retention(database, () -> settings.current().retentionDays(), Retention.DEFAULT_BATCH);
        this.housekeeping = new RetentionScheduler(retention, settings, clock, java.time.Duration.ofMinutes(5));
        RequestLog requestLog = new RequestLog(database);
        GroupAdmin groupAdmin = new GroupAdmin(database, audit, clock);
        AccountAdmin accountAdmin = new AccountAdmin(database, accounts, secrets.box(), audit, clock);
        KeyAdmin keyAdmin = new KeyAdmin(database, audit, clock);
        ModelAdmin modelAdmin = new ModelAdmin(database, audit, clock);

        // admin API (SPEC §9): bearer token or a console session (+ CSRF on changes)
        AdminToken adminToken = AdminTokenBootstrap.establish(config.adminToken(), database, clock);
        routes.put("/metrics", new MetricsServlet(metrics, clock, MetricsServlet.isLoopback(config.bind()),
                new BearerTokenAuthenticator(adminToken)));
        // R-3…R-6 recovery: lease-held scheduler, budgeted probes on their own threads, one-click ops
        MyBatisRecoveryStore recoveryStore = new MyBatisRecoveryStore(database);
        ModelTester modelTester = new ModelTester(upstream, snapshot, poolStore, recoveryStore, countedEvents, clock);
        this.probeExecutor = RecoveryScheduler.probeExecutor();
        ProbeBudget budget = new ProbeBudget(() -> settings.current().probeBudgetPerMinute(),
                () -> settings.current().probeConcurrency());
        this.recovery = new RecoveryScheduler(recoveryStore, snapshot, modelTester, budget,
                new LeaderLease(recoveryStore, LeaderLease.newHolderId(), config.recoveryTick().multipliedBy(3)),
                probeExecutor, ZoneId.systemDefault(), config.recoveryTick());
        RecoveryAdmin recoveryAdmin = new RecoveryAdmin(database, audit, snapshot, modelTester, recoveryStore, recovery,
                accountId -> false, clock);
        routes.putAll(ConsoleRoutes.recovery(consoleAuth, recoveryAdmin));
        ModelTestAction modelTest = new ConsoleModelTest(recoveryAdmin); // R-4 behind the console's test button
        ConsolePool pool = new ConsolePool(accountAdmin, groupAdmin, keyAdmin, modelAdmin,
                new AccountBoard(accountAdmin, groupAdmin, modelAdmin, leases::inFlight, clock), modelTest,
                snapshot::reload);
        Map<String, HttpServlet> console = ConsoleRoutes.create(consoleAuth, consoleUsers,
                new MyBatisAccountsPageSource(database), clock, pool,
                new OperatingPages(requestLog, audit, settings, new Dashboard(database, snapshot), snapshot));
        routes.putAll(console);
        List<AdminAuthenticator> adminAuth = List.of(new BearerTokenAuthenticator(adminToken),
                request -> consoleAuth.signedInUser(request).filter(user ->
                        !ConsoleSessionAuth.isStateChanging(request) || consoleAuth.csrfValid(request)));
        PriceAdmin priceAdmin = new PriceAdmin(database, audit, clock);
        BlockAdmin blockAdmin = new BlockAdmin(database, audit, clock);
        routes.put("/admin/api/*", new AdminApiServlet(AdminAuthenticator.anyOf(adminAuth), groupAdmin,
                accountAdmin, new AccountStateView(clock, poolStore::modelRows, leases::inFlight), audit, keyAdmin,
                requestLog, snapshot::reload, modelAdmin).withSmartKeys(priceAdmin, blockAdmin).withRecovery(recoveryAdmin)
                .withSettings(settings));
        Map<String, HttpServlet> smartRoutes = SmartRoutes.create(new SmartRoutes.Deps(consoleAuth, forwarder, router,
                snapshot, smartKeys, leases, keyAdmin, priceAdmin, blockAdmin, requestLog,
                new RouteChecks(modelTester, budget, probeExecutor, clock, RouteChecks.KEY_COOLDOWN), clock)); // E-1 check now
        // /keys/* is shared: the key list (console) and the per-key policy editor and rotate (smart keys)
        smartRoutes.put("/keys/*", new PathSplitServlet(Pattern.compile("^/[0-9]+/(policy|rotate)/?$"),
                smartRoutes.get("/keys/*"), console.get("/keys/*")));
        routes.putAll(smartRoutes);
        // issue 4 item 5: DETOUR_DEMO seeds a sample pool through the same admin use cases
        this.demo = demoLogin.map(login -> new DemoMode(groupAdmin, accountAdmin, keyAdmin, snapshot::reload, login));
        this.server = JettyServer.newServer(config.bind(), config.port(), routes,
                new ForwardedProtoCustomizer(proxies::forwardedHttps), config.shutdownGrace());
    }

    /** DETOUR_INSTANCES: how many instances share the database (docs/operations.md, "Several instances"). */
    private static int instancesFromEnvironment() {
        String value = System.getenv("DETOUR_INSTANCES");
        try {
            return value == null || value.isBlank() ? 1 : Math.max(1, Math.min(1000, Integer.parseInt(value.trim())));
        } catch (NumberFormatException e) {
            log.warn("DETOUR_INSTANCES is not a number ({}); using 1", value);
            return 1;
        }
    }

    private static java.util.concurrent.ScheduledExecutorService sessionSweeper(LoadState load, Clock clock) {
        var sweeper = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
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
        }, 5, 5, java.util.concurrent.TimeUnit.MINUTES);
        return sweeper;
    }

    /** Starts the database (embedded when no URL is configured), migrates, then serves HTTP. */
    public static App start(DetourConfig config, Clock clock) {
        Optional<EmbeddedMariaDb> embedded = Optional.empty();
        String url;
        String user;
        String password;
        if (config.embeddedDatabase()) {
            EmbeddedMariaDb db = EmbeddedMariaDb.start(config.dataDir().resolve("mariadb"));
            embedded = Optional.of(db);
            url = db.jdbcUrl();
            user = db.user();
            password = null;
        } else {
            url = config.dbUrl().orElseThrow();
            user = config.dbUser().orElse(null);
            password = config.dbPassword().orElse(null);
        }
        Database database = Database.connect(url, user, password, 20);
        App app = null;
        try {
            database.migrate();
            app = new App(config, embedded, database, clock);
            app.server.start();
            app.recovery.start(clock); // ticks on a daemon thread; only the lease holder acts
            log.info("Detour listening on http://{}:{}", config.bind(), app.port());
            int port = app.port();
            app.demo.ifPresent(d -> d.start(config.bind(), port));
            return app;
        } catch (Exception e) {
            if (app != null) {
                app.close();
            } else {
                database.close();
                embedded.ifPresent(EmbeddedMariaDb::close);
            }
            if (e instanceof ConfigException refused) {
                throw refused; // O-1: one line naming the variable (e.g. demo mode on a real pool)
            }
            throw new IllegalStateException("Detour failed to start: " + e.getMessage(), e);
        }
    }

    public int port() {
        return JettyServer.port(server);
    }

    public Database database() {
        return database;
    }

    /** Accounts as the gateway reads them (config, failure state, decrypted key by id). */
    public AccountRepository accounts() {
        return accounts;
    }

    public ConsoleSessionAuth consoleAuth() {
        return consoleAuth;
    }

    public PoolSnapshot snapshot() {
        return snapshot;
    }

    public SmartKeys smartKeys() {
        return smartKeys;
    }

    public StateRecorder stateRecorder() {
        return stateRecorder;
    }

    public Leases leases() {
        return leases;
    }

    public LoadState load() {
        return load;
    }

    public AsyncEventWriter events() {
        return events;
    }

    /** the recovery scheduler (tests stop its loop and call {@code tick(now)} themselves). */
    public RecoveryScheduler recovery() {
        return recovery;
    }

    public Metrics metrics() {
        return metrics;
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

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // O-5: stop accepting and drain in-flight requests (bounded), then the background work,
        // then flush the event queue, then the database; the demo's own traffic stops first
        demo.ifPresent(DemoMode::close);
        try {
            server.stop();
        } catch (Exception e) {
            log.warn("HTTP server did not stop cleanly: {}", e.toString());
        }
        housekeeping.close();
        refresher.close();
        recovery.close();
        probeExecutor.shutdownNow();
        sweeper.shutdownNow();
        load.bindings().close();
        try {
            upstream.close(); // anything still running past the grace ends now and emits its event
        } catch (Exception e) {
            log.warn("upstream client did not close cleanly: {}", e.toString());
        }
        events.close();
        smartStore.close();
        database.close();
        embedded.ifPresent(EmbeddedMariaDb::close);
    }
}
