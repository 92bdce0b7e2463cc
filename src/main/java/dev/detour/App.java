package dev.detour;

import dev.detour.adapter.api.AdminApiServlet;
import dev.detour.adapter.api.AdminAuthenticator;
import dev.detour.adapter.api.BearerTokenAuthenticator;
import dev.detour.adapter.api.HealthServlet;
import dev.detour.adapter.crypto.AdminToken;
import dev.detour.adapter.crypto.PasswordHasher;
import dev.detour.adapter.crypto.Secrets;
import dev.detour.adapter.db.AsyncEventWriter;
import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.EmbeddedMariaDb;
import dev.detour.adapter.db.MyBatisAccountsPageSource;
import dev.detour.adapter.db.MyBatisPoolStore;
import dev.detour.adapter.proxy.ClientAddress;
import dev.detour.adapter.proxy.ProxyServlet;
import dev.detour.adapter.upstream.HttpClient5UpstreamClient;
import dev.detour.adapter.web.ConsolePool;
import dev.detour.adapter.web.ConsoleRoutes;
import dev.detour.adapter.web.ConsoleSessionAuth;
import dev.detour.admin.AccountAdmin;
import dev.detour.admin.AccountBoard;
import dev.detour.admin.AccountRepository;
import dev.detour.admin.AccountStateView;
import dev.detour.admin.AdminTokenBootstrap;
import dev.detour.admin.AuditLog;
import dev.detour.admin.ConsoleUsers;
import dev.detour.admin.GroupAdmin;
import dev.detour.admin.KeyAdmin;
import dev.detour.admin.LoginThrottle;
import dev.detour.admin.ModelAdmin;
import dev.detour.admin.ModelTestAction;
import dev.detour.admin.RequestLog;
import dev.detour.core.selection.SelectionPipeline;
import dev.detour.gateway.Forwarder;
import dev.detour.gateway.Leases;
import dev.detour.gateway.Pauser;
import dev.detour.gateway.PoolRefresher;
import dev.detour.gateway.PoolSnapshot;
import dev.detour.gateway.Router;
import dev.detour.gateway.StateRecorder;
import dev.detour.config.DetourConfig;
import dev.detour.server.JettyServer;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

        // the gateway (SPEC §2–§5): snapshot, upstream client, failure engine, async events
        MyBatisPoolStore poolStore = new MyBatisPoolStore(database, secrets.box());
        this.snapshot = new PoolSnapshot(poolStore);
        this.refresher = new PoolRefresher(snapshot);
        this.events = new AsyncEventWriter(database, 10_000);
        this.upstream = new HttpClient5UpstreamClient(config.connectTimeout(), config.readTimeout());
        this.leases = new Leases();
        Forwarder forwarder = new Forwarder(snapshot, new Router(new SelectionPipeline(), null), upstream,
                new StateRecorder(poolStore, snapshot), leases, events, snapshot::apiKey, Pauser.SLEEP, clock);
        routes.put("/v1/*", new ProxyServlet(forwarder, clock, ClientAddress.PEER));

        // U-1 console: first-run admin, session + CSRF (consoleAuth is shared with the admin API)
        this.consoleAuth = ConsoleSessionAuth.standard();
        ConsoleUsers consoleUsers = new ConsoleUsers(database, new PasswordHasher(), clock, LoginThrottle.standard(clock));
        consoleUsers.ensureFirstAdmin(config.adminPassword());
        AuditLog audit = new AuditLog(database, clock);
        GroupAdmin groupAdmin = new GroupAdmin(database, audit, clock);
        AccountAdmin accountAdmin = new AccountAdmin(database, accounts, secrets.box(), audit, clock);
        KeyAdmin keyAdmin = new KeyAdmin(database, audit, clock);
        ModelAdmin modelAdmin = new ModelAdmin(database, audit, clock);
        ModelTestAction modelTest = null; // the recovery work wires the model test here
        ConsolePool pool = new ConsolePool(accountAdmin, groupAdmin, keyAdmin, modelAdmin,
                new AccountBoard(accountAdmin, groupAdmin, modelAdmin, leases::inFlight, clock), modelTest,
                snapshot::reload);
        routes.putAll(ConsoleRoutes.create(consoleAuth, consoleUsers, new MyBatisAccountsPageSource(database), clock, pool));

        // admin API (SPEC §9): bearer token or a console session (+ CSRF on changes)
        AdminToken adminToken = AdminTokenBootstrap.establish(config.adminToken(), database, clock);
        List<AdminAuthenticator> adminAuth = List.of(new BearerTokenAuthenticator(adminToken),
                request -> consoleAuth.signedInUser(request).filter(user ->
                        !ConsoleSessionAuth.isStateChanging(request) || consoleAuth.csrfValid(request)));
        routes.put("/admin/api/*", new AdminApiServlet(AdminAuthenticator.anyOf(adminAuth), groupAdmin,
                accountAdmin, new AccountStateView(clock, poolStore::modelRows, leases::inFlight), audit, keyAdmin,
                new RequestLog(database), snapshot::reload, modelAdmin));
        this.server = JettyServer.newServer(config.bind(), config.port(), routes);
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
        try {
            database.migrate();
            App app = new App(config, embedded, database, clock);
            app.server.start();
            log.info("Detour listening on http://{}:{}", config.bind(), app.port());
            return app;
        } catch (Exception e) {
            database.close();
            embedded.ifPresent(EmbeddedMariaDb::close);
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

    public Leases leases() {
        return leases;
    }

    public AsyncEventWriter events() {
        return events;
    }

    public DetourConfig config() {
        return config;
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            log.warn("HTTP server did not stop cleanly: {}", e.toString());
        }
        refresher.close();
        events.close();
        try {
            upstream.close();
        } catch (Exception e) {
            log.warn("upstream client did not close cleanly: {}", e.toString());
        }
        database.close();
        embedded.ifPresent(EmbeddedMariaDb::close);
    }
}
