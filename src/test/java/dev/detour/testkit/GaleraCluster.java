package dev.detour.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * G-1: a three-node MariaDB Galera cluster on loopback, run by {@code bin/galera-cluster} (Debian's
 * {@code mariadb-server} + {@code galera-4}; see docs/galera.md). One cluster per test JVM, started on first use
 * ({@link #shared()}) and stopped when the JVM ends: a start takes about a minute on the 2-core test machine
 * (two full copies by rsync SST), too long to repeat per class. A test that kills or stops a node starts it
 * again before it ends; a test that needs an empty database calls {@link #emptySchema()}.
 *
 * <p>Skips the test loudly, with the reason, only when the packages could not be installed
 * (bin/ensure-galera wrote why). Waits are hang guards inside the script, never timing assertions.
 */
public final class GaleraCluster {
    public static final Path SCRIPT = Path.of("bin/galera-cluster").toAbsolutePath();
    public static final String DATABASE = "detour";
    private static final Path MARIADBD = Path.of("/usr/sbin/mariadbd");
    private static final Path PROVIDER = Path.of("/usr/lib/galera/libgalera_smm.so");
    public static final int NODES = 3;
    /** Ports below it are commonly taken by system services. */
    private static final int LOWEST_BASE = 20_000;
    private static GaleraCluster shared;

    private final Path dir;
    private final int basePort;
    private final Duration startTime;

    private GaleraCluster(Path dir, int basePort, Duration startTime) {
        this.dir = dir;
        this.basePort = basePort;
        this.startTime = startTime;
    }

    /** The JVM's cluster, started on the first call (the test is skipped, loudly, when Galera cannot be had). */
    public static synchronized GaleraCluster shared() {
        assumeGalera();
        if (shared == null) {
            Path dir = TestDirs.embeddedRoot("galera");
            int base = freeBasePort();
            long started = System.nanoTime();
            run(Duration.ofMinutes(8), "start", dir.toString(), Integer.toString(base));
            GaleraCluster cluster = new GaleraCluster(dir, base, Duration.ofNanos(System.nanoTime() - started));
            Runtime.getRuntime().addShutdownHook(new Thread(cluster::stop, "galera-cluster-stop"));
            shared = cluster;
        }
        return shared;
    }

    /** Skips the calling test when mariadbd or the Galera provider is missing, naming the reason. */
    public static void assumeGalera() {
        Path why = Path.of("target", "galera-unavailable.txt");
        String reason;
        try {
            reason = Files.exists(why) ? Files.readString(why).strip() : "missing " + MARIADBD + " or " + PROVIDER;
        } catch (IOException e) {
            reason = e.toString();
        }
        boolean present = Files.isExecutable(MARIADBD) && Files.isRegularFile(PROVIDER);
        if (!present) {
            System.err.println("!!! SKIPPED: Galera cannot be run here (" + reason + ") !!!");
        }
        Assumptions.assumeTrue(present, "!!! SKIPPED: a Galera cluster cannot be run here (" + reason
                + "). Install with: apt-get install -y mariadb-server galera-4 nginx !!!");
    }

    /** How long {@code bin/galera-cluster start} took (bootstrap of node 1, two joins by SST). */
    public Duration startTime() {
        return startTime;
    }

    /** {@code jdbc:mariadb://127.0.0.1:<port>/detour} of node {@code n} (1..3). */
    public String nodeUrl(int n) {
        return "jdbc:mariadb://127.0.0.1:" + sqlPort(n) + "/" + DATABASE;
    }

    public int sqlPort(int n) {
        if (n < 1 || n > NODES) {
            throw new IllegalArgumentException("node " + n + " of 1.." + NODES);
        }
        return basePort + n - 1;
    }

    /**
     * The driver's multi-host failover URL (MariaDB Connector/J 3.5 {@code sequential} mode: connect to the
     * first host that answers, in the listed order), listing node {@code first} first and then the others:
     * instances given different firsts write through different nodes, as a real cluster's would.
     */
    public String failoverUrl(int first) {
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            hosts.add("127.0.0.1:" + sqlPort((first - 1 + i) % NODES + 1));
        }
        return "jdbc:mariadb:sequential://" + String.join(",", hosts) + "/" + DATABASE;
    }

    public String user() {
        return "detour";
    }

    public String password() {
        return "detour";
    }

    public Connection connect(int n) throws SQLException {
        return DriverManager.getConnection(nodeUrl(n), user(), password());
    }

    /**
     * A connection to node {@code n} whose reads and writes are causal ({@code wsrep_sync_wait = 15}: reads,
     * updates and deletes, inserts and replaces, SHOW): the node first applies what the cluster committed before
     * the statement. A plain one may come before the node has applied a commit made through another node (stop 32:
     * Flyway's history row, committed through node 1, not yet on node 2; session 29: an INSERT on node 2 right after
     * a CREATE TABLE through node 1 found no table).
     */
    public Connection connectCausal(int n) throws SQLException {
        Connection c = connect(n);
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION wsrep_sync_wait = 15");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    /**
     * Starts {@code count} Detour instances ({@code java -jar}) at the same moment, instance i given
     * {@link #failoverUrl(int) failoverUrl(i)} (so each writes through a different node first), and waits
     * until all are ready. The caller closes them.
     */
    public List<DetourProcess> startInstances(String name, int count, Map<String, String> env) {
        ExecutorService starter = Executors.newFixedThreadPool(count);
        List<Future<DetourProcess>> starting = new ArrayList<>();
        List<DetourProcess> started = new ArrayList<>();
        try {
            for (int i = 1; i <= count; i++) {
                Map<String, String> own = new LinkedHashMap<>(env);
                own.put("DETOUR_DB_URL", failoverUrl((i - 1) % NODES + 1));
                own.put("DETOUR_DB_USER", user());
                own.put("DETOUR_DB_PASSWORD", password());
                String instance = name + "-" + i;
                starting.add(starter.submit(() -> DetourProcess.start(instance, own)));
            }
            for (Future<DetourProcess> f : starting) {
                started.add(f.get());
            }
            return started;
        } catch (ExecutionException e) {
            started.forEach(DetourProcess::close);
            starting.forEach(f -> f.cancel(true));
            throw new AssertionError("an instance did not start on the Galera cluster", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            starter.shutdown();
        }
    }

    /** Drops and recreates the application database (replicated to every node). */
    public void emptySchema() {
        try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + sqlPort(1) + "/", user(),
                password()); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + DATABASE);
            s.execute("CREATE DATABASE " + DATABASE + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
        } catch (SQLException e) {
            throw new IllegalStateException("could not recreate " + DATABASE + " on the Galera cluster", e);
        }
    }

    /** SIGKILL of node {@code n}'s mariadbd, as a crash. */
    public void killNode(int n) {
        run(Duration.ofMinutes(2), "kill-node", dir.toString(), Integer.toString(n));
    }

    /** Node {@code n} (re)joins the running cluster (IST from a donor's cache, or a full copy) and is Synced. */
    public void startNode(int n) {
        run(Duration.ofMinutes(5), "start-node", dir.toString(), Integer.toString(n));
    }

    /** SIGKILL of the three nodes at once: the whole database gone (a power cut of the cluster). */
    public void killAll() {
        run(Duration.ofMinutes(2), "kill-all", dir.toString());
    }

    /**
     * Every node down: the cluster is started again as docs/galera.md tells an operator (bootstrap from the node
     * with the highest recovered seqno, marked {@code safe_to_bootstrap: 1}; the others join it). Returns the
     * script's account of it (each node's recovered position, the node bootstrapped, the states after).
     */
    public String restart() {
        return run(Duration.ofMinutes(8), "restart", dir.toString());
    }

    /** Each node's state and the cluster size it sees, one line per node. */
    public String status() {
        return run(Duration.ofMinutes(1), "status", dir.toString());
    }

    private void stop() {
        try {
            run(Duration.ofMinutes(3), "stop", dir.toString());
        } catch (RuntimeException e) {
            System.err.println("galera-cluster stop failed: " + e.getMessage());
        }
    }

    private static String run(Duration cap, String... args) {
        List<String> command = new ArrayList<>();
        command.add("bash");
        command.add(SCRIPT.toString());
        command.addAll(List.of(args));
        try {
            Path log = Files.createTempFile("galera-cluster", ".log");
            try {
                Process p = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                        .start();
                if (!p.waitFor(cap.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException(String.join(" ", command) + " still running after " + cap
                            + ":\n" + Files.readString(log, StandardCharsets.UTF_8));
                }
                String output = Files.readString(log, StandardCharsets.UTF_8);
                if (p.exitValue() != 0) {
                    throw new IllegalStateException(String.join(" ", command) + " exited " + p.exitValue() + ":\n"
                            + output);
                }
                return output;
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A base whose 12 ports are free now and stay out of the kernel's ephemeral range: a node that is killed and
     * started again binds its IST and SST ports anew minutes later, and a port in the ephemeral range may by then be
     * the local end of some connection (CI once lost a rejoin so: "Failed to open IST listener … Address already in
     * use", then "Will never receive state").
     */
    static int freeBasePort() {
        int bases = (ephemeralLow() - LOWEST_BASE - 100) / 100;
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = LOWEST_BASE + 100 * ThreadLocalRandom.current().nextInt(bases);
            if (allFree(base)) {
                return base;
            }
        }
        throw new IllegalStateException("no free port range for the Galera cluster");
    }

    /** The first port the kernel hands out for outgoing connections (Linux's default 32768 when unreadable). */
    static int ephemeralLow() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).strip();
            int low = Integer.parseInt(range.split("\\s+")[0]);
            return Math.max(low, LOWEST_BASE + 200);
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    /** The 3 SQL and the 9 replication/IST/SST ports bin/galera-cluster derives from a base. */
    static List<Integer> clusterPorts(int base) {
        List<Integer> ports = new ArrayList<>();
        for (int n = 1; n <= NODES; n++) {
            ports.addAll(List.of(base + n - 1, base + 10 + n, base + 20 + n, base + 30 + n));
        }
        return ports;
    }

    private static boolean allFree(int base) {
        for (int port : clusterPorts(base)) {
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                s.setReuseAddress(true);
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }
}
