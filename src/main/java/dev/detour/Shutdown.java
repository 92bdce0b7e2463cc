package dev.detour;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * D-3: how the process stops. SIGTERM (systemd, {@code kill}) and SIGINT (Ctrl-C) start one ordered
 * {@link App#close()} (stop accepting → drain within the grace → flush events → release the lease →
 * close the pool → stop the embedded MariaDB) and the process then exits 0: a requested stop that
 * completed is a success, not the JVM's 143 (1 when the close itself failed). Every other exit
 * ({@code System.exit}, a last non-daemon thread ending) goes through the shutdown hook, which runs the
 * same close or waits for the one under way; so does a second signal.
 */
final class Shutdown {
    private static final Logger log = LoggerFactory.getLogger(Shutdown.class);

    private final App app;
    private boolean started;
    private volatile boolean stoppedCleanly;
    private final Thread closer;

    private Shutdown(App app) {
        this.app = app;
        this.closer = new Thread(this::closeApp, "detour-shutdown");
    }

    /** Installs the signal handlers and the shutdown hook for {@code app}. */
    static void install(App app) {
        Shutdown shutdown = new Shutdown(app);
        Runtime.getRuntime().addShutdownHook(new Thread(shutdown::closeAndWait, "detour-shutdown-hook"));
        shutdown.onSignal("TERM");
        shutdown.onSignal("INT");
        app.ownDatabaseStop(); // from here on the embedded MariaDB stops last, in App.close(), and only there
    }

    private void onSignal(String name) {
        try {
            sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
                log.info("SIG{} received: stopping (grace {} s)", name, app.config().shutdownGrace().toSeconds());
                // the handler's own thread may not block the JVM's signal dispatch: stop on a thread of ours
                Thread exit = new Thread(() -> {
                    closeAndWait();
                    System.exit(stoppedCleanly ? 0 : 1);
                }, "detour-signal-" + name);
                exit.start();
            });
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            // e.g. -Xrs or a platform without the signal: the shutdown hook still closes in order (exit 143)
            log.info("no handler for SIG{} ({}); the shutdown hook stops Detour", name, e.toString());
        }
    }

    /** Starts the one close (a second signal or the hook only waits for it) and waits until it is done. */
    private void closeAndWait() {
        synchronized (this) {
            if (!started) {
                started = true;
                closer.start();
            }
        }
        try {
            closer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void closeApp() {
        try {
            app.close();
            stoppedCleanly = true;
            log.info("Detour stopped");
        } catch (RuntimeException e) {
            log.error("shutdown did not complete cleanly", e);
        }
    }
}
