package dev.detour;

import dev.detour.adapter.api.AdminApiServlet;
import dev.detour.adapter.api.AdminAuthenticator;
import dev.detour.adapter.api.BearerTokenAuthenticator;
import dev.detour.adapter.api.HealthServlet;
import dev.detour.adapter.crypto.AdminToken;
import dev.detour.adapter.crypto.Secrets;
import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.EmbeddedMariaDb;
import dev.detour.admin.AccountAdmin;
import dev.detour.admin.AccountRepository;
import dev.detour.admin.AccountStateView;
import dev.detour.admin.AdminTokenBootstrap;
import dev.detour.admin.AuditLog;
import dev.detour.admin.GroupAdmin;
import dev.detour.config.DetourConfig;
import dev.detour.server.JettyServer;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.util.ArrayList;
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
    private final Server server;
    private final AccountRepository accounts;

    private App(DetourConfig config, Optional<EmbeddedMariaDb> embedded, Database database, Clock clock) {
        this.config = config;
        this.embedded = embedded;
        this.database = database;
        Map<String, HttpServlet> routes = new LinkedHashMap<>();
        HealthServlet health = new HealthServlet(database::ready);
        routes.put("/healthz", health);
        routes.put("/readyz", health);

        // admin API (SPEC §9): secrets, admin token, account/group use cases
        Secrets secrets = Secrets.load(config);
        AdminToken adminToken = AdminTokenBootstrap.establish(config.adminToken(), database, clock);
        this.accounts = new AccountRepository(database, secrets.box());
        AuditLog audit = new AuditLog(database, clock);
        GroupAdmin groupAdmin = new GroupAdmin(database, audit, clock);
        AccountAdmin accountAdmin = new AccountAdmin(database, accounts, secrets.box(), audit, clock);
        // the console adds its session + CSRF authenticator to this list
        List<AdminAuthenticator> adminAuth = new ArrayList<>(List.of(new BearerTokenAuthenticator(adminToken)));
        routes.put("/admin/api/*", new AdminApiServlet(AdminAuthenticator.anyOf(adminAuth), groupAdmin,
                accountAdmin, new AccountStateView(clock), audit));
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
        database.close();
        embedded.ifPresent(EmbeddedMariaDb::close);
    }
}
