package dev.detour.testkit;

import dev.detour.adapter.db.EmbeddedMariaDb;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * D-6 database faults on a real mariadbd: the server process of an {@link EmbeddedMariaDb} this test
 * started itself (never the shared {@link TestDatabase}), found among this JVM's descendants by its
 * socket path. {@link #freeze()}/{@link #thaw()} send SIGSTOP/SIGCONT; {@link #stop()} sends SIGTERM and
 * waits for the exit; {@link #restart()} starts the same binary with the same arguments (same port,
 * socket and data) as a process of this JVM's own (found again by the next {@code MariaDbProcess}, so
 * the server stays up for later tests; the test class stops it at its end with {@link #stop()}).
 */
public final class MariaDbProcess implements AutoCloseable {
    private final EmbeddedMariaDb db;
    private final List<String> command;
    private ProcessHandle running;
    private Process relaunched;

    public MariaDbProcess(EmbeddedMariaDb db) {
        this.db = db;
        String socket = db.socket().toString();
        this.running = ProcessHandle.current().descendants()
                .filter(p -> p.info().arguments().map(a -> String.join(" ", a).contains(socket)).orElse(false))
                .filter(p -> p.info().command().map(c -> c.endsWith("mariadbd") || c.endsWith("mysqld")).orElse(false))
                .findFirst().orElseThrow(() -> new IllegalStateException("no mariadbd with socket " + socket));
        List<String> cmd = new ArrayList<>();
        cmd.add(running.info().command().orElseThrow());
        cmd.addAll(List.of(running.info().arguments().orElseThrow()));
        this.command = List.copyOf(cmd);
    }

    public long pid() {
        return running.pid();
    }

    public void freeze() {
        signal("STOP");
    }

    public void thaw() {
        signal("CONT");
    }

    /** SIGTERM, then waits until the server has exited (it shuts down cleanly). */
    public void stop() {
        signal("TERM");
        try {
            running.onExit().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("mariadbd " + running.pid() + " did not exit", e);
        }
    }

    /** Starts the server again as it was started, and waits until its port accepts connections. */
    public void restart() {
        try {
            Path log = db.socket().getParent().resolve("relaunched.log");
            relaunched = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            running = relaunched.toHandle();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!accepts(db.port())) {
                if (System.nanoTime() > deadline || !relaunched.isAlive()) {
                    throw new IllegalStateException("mariadbd did not come back; see " + log);
                }
                Thread.sleep(100); // waiting for a server to listen, not for a cooldown
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not start mariadbd again", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(running.pid())).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + name + " " + running.pid() + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Never leaves the server frozen. */
    @Override
    public void close() {
        if (running.isAlive()) {
            signal("CONT");
        }
    }
}
