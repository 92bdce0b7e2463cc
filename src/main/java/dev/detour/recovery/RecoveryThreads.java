package dev.detour.recovery;

import java.util.concurrent.ThreadFactory;

/** Daemon threads for the recovery loop and its probes: they never keep the JVM alive. */
final class RecoveryThreads {
    private RecoveryThreads() {
    }

    static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
