package dev.detour.testkit;

import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.EmbeddedMariaDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * One embedded MariaDB per test JVM, shared by every IT (its files under target/, see the pom),
 * migrated once; {@link #clean()} empties every table between tests.
 */
public final class TestDatabase {
    private static EmbeddedMariaDb server;
    private static Database database;

    private TestDatabase() {
    }

    public static synchronized EmbeddedMariaDb server() {
        if (server == null) {
            String dir = System.getProperty("detour.test.db.dir");
            Path root = dir == null || dir.isBlank() || dir.endsWith("target/it-mariadb")
                    ? TestDirs.embeddedRoot("it-mariadb") : Path.of(dir).toAbsolutePath();
            server = EmbeddedMariaDb.start(root);
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "it-mariadb-stop"));
        }
        return server;
    }

    /** A migrated Database on the shared server; the pool is shared too and never closed by tests. */
    public static synchronized Database database() {
        if (database == null) {
            EmbeddedMariaDb db = server();
            recreateSchema(db);
            database = Database.connect(db.jdbcUrl(), db.user(), db.password(), 20);
            database.migrate();
        }
        return database;
    }

    /** Each test JVM starts from an empty schema: a database left by an older build must not fail Flyway. */
    private static void recreateSchema(EmbeddedMariaDb db) {
        String url = db.jdbcUrl();
        String serverUrl = url.substring(0, url.lastIndexOf('/') + 1);
        try (Connection c = java.sql.DriverManager.getConnection(serverUrl, db.user(), db.password());
                Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + EmbeddedMariaDb.DATABASE);
            s.execute("CREATE DATABASE " + EmbeddedMariaDb.DATABASE);
        } catch (SQLException e) {
            throw new IllegalStateException("could not recreate the test schema", e);
        }
    }

    /** Deletes every row of every application table (not Flyway's history), keeping the seed rows. */
    public static void clean() {
        try (Connection c = database().dataSource().getConnection(); Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT table_name FROM information_schema.tables "
                    + "WHERE table_schema = DATABASE() AND table_name <> 'flyway_schema_history'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            s.execute("SET FOREIGN_KEY_CHECKS = 0");
            for (String table : tables) {
                if (table.equals("pool_revision")) {
                    continue;
                }
                s.execute("DELETE FROM `" + table + "`");
            }
            s.execute("SET FOREIGN_KEY_CHECKS = 1");
        } catch (SQLException e) {
            throw new IllegalStateException("could not clean the test database", e);
        }
    }
}
