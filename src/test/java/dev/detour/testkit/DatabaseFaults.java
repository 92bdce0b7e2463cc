package dev.detour.testkit;

import dev.detour.adapter.db.EmbeddedMariaDb;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * D-6 database faults on a real mariadbd process this test started for itself (never the shared
 * {@link TestDatabase}): freeze it (SIGSTOP — it keeps its sockets but answers nothing, as during
 * a failover, a long lock wait or a snapshot), thaw it (SIGCONT), stop it and start it again on the
 * same port and data. {@link #close()} always thaws and stops it, so a failed test leaves no frozen
 * server behind.
 *
 * <pre>
 * try (DatabaseFaults db = DatabaseFaults.startFresh("freeze-it")) {
 *     App app = App.start(config.withDatabase(db.jdbcUrl(), db.user(), db.password()), clock);
 *     db.freeze();  ...  db.thaw();
 * }
 * </pre>
 */
public final class DatabaseFaults implements AutoCloseable {
    private final Path root;
    private EmbeddedMariaDb server;
    private boolean frozen;

    private DatabaseFaults(Path root, EmbeddedMariaDb server) {
        this.root = root;
        this.server = server;
    }

    /** Starts an embedded MariaDB of its own under {@link TestDirs#embeddedRoot(String)}, with an empty schema. */
    public static DatabaseFaults startFresh(String name) {
        Path root = TestDirs.embeddedRoot(name).resolve("mariadb");
        EmbeddedMariaDb server = EmbeddedMariaDb.start(root);
        DatabaseFaults faults = new DatabaseFaults(root, server);
        faults.emptySchema();
        return faults;
    }

    public EmbeddedMariaDb server() {
        return server;
    }

    public String jdbcUrl() {
        return server.jdbcUrl();
    }

    public String user() {
        return server.user();
    }

    public String password() {
        return server.password();
    }

    /** The mariadbd process serving this database (found by its socket path among this JVM's children). */
    public long pid() {
        String socket = "--socket=" + server.socket();
        List<ProcessHandle> matches = ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().map(c -> c.contains(socket)).orElse(false))
                .filter(p -> p.info().command().map(c -> c.endsWith("mariadbd") || c.endsWith("mysqld"))
                        .orElse(false))
                .toList();
        if (matches.size() != 1) {
            throw new IllegalStateException("expected one mariadbd with " + socket + ", found " + matches.size());
        }
        return matches.get(0).pid();
    }

    /** SIGSTOP: the server keeps its connections open and answers nothing until {@link #thaw()}. */
    public synchronized void freeze() {
        signal("STOP");
        frozen = true;
    }

    /** SIGCONT: the frozen server carries on where it stopped. */
    public synchronized void thaw() {
        if (frozen) {
            signal("CONT");
            frozen = false;
        }
    }

    public synchronized boolean frozen() {
        return frozen;
    }

    /** Stops the server cleanly (connections are refused until {@link #start()}). */
    public synchronized void stop() {
        thaw();
        if (server != null) {
            server.close();
        }
    }

    /** Starts the stopped server again on the same port and data: the app's pool finds it at its old URL. */
    public synchronized void start() {
        server = EmbeddedMariaDb.start(root, server.port());
    }

    /** Plain JDBC on this database (to look behind the app after a fault). */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), user(), password());
    }

    /** Drops and recreates the application schema (the next App migrates it from scratch). */
    public void emptySchema() {
        String url = jdbcUrl();
        try (Connection c = DriverManager.getConnection(url.substring(0, url.lastIndexOf('/') + 1), user(),
                password()); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + EmbeddedMariaDb.DATABASE);
            s.execute("CREATE DATABASE " + EmbeddedMariaDb.DATABASE);
        } catch (SQLException e) {
            throw new IllegalStateException("could not recreate the schema of " + root, e);
        }
    }

    private void signal(String name) {
        long pid = pid();
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + pid + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException("kill -" + name + " " + pid + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Thaws and stops the server (whatever the test left it in). */
    @Override
    public synchronized void close() {
        try {
            thaw();
        } finally {
            if (server != null) {
                try {
                    server.close();
                } catch (RuntimeException e) {
                    // already stopped by the test
                }
                server = null;
            }
        }
    }
}
