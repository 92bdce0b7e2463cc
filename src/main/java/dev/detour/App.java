package dev.detour;

import dev.detour.adapter.api.HealthServlet;
import dev.detour.adapter.crypto.PasswordHasher;
import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.EmbeddedMariaDb;
import dev.detour.adapter.db.MyBatisAccountsPageSource;
import dev.detour.adapter.web.ConsoleRoutes;
import dev.detour.adapter.web.ConsoleSessionAuth;
import dev.detour.admin.ConsoleUsers;
import dev.detour.admin.LoginThrottle;
import dev.detour.config.DetourConfig;
import dev.detour.server.JettyServer;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.util.LinkedHashMap;
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

    private App(DetourConfig config, Optional<EmbeddedMariaDb> embedded, Database database, Clock clock) {
        this.config = config;
        this.embedded = embedded;
        this.database = database;
        Map<String, HttpServlet> routes = new LinkedHashMap<>();
        HealthServlet health = new HealthServlet(database::ready);
        routes.put("/healthz", health);
        routes.put("/readyz", health);
        // U-1 console: first-run admin, session + CSRF (consoleAuth is shared with the admin API)
        this.consoleAuth = ConsoleSessionAuth.standard();
        ConsoleUsers consoleUsers = new ConsoleUsers(database, new PasswordHasher(), clock, LoginThrottle.standard(clock));
        consoleUsers.ensureFirstAdmin(config.adminPassword());
        routes.putAll(ConsoleRoutes.create(consoleAuth, consoleUsers, new MyBatisAccountsPageSource(database), clock));
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

    public ConsoleSessionAuth consoleAuth() {
        return consoleAuth;
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
