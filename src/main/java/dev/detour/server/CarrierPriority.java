package dev.detour.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.util.VirtualThreads;

/**
 * N-8, D-2 on JDK 21+: the virtual threads' carriers run at the platform request threads' priority.
 *
 * <p>Beyond the front's first connections every request runs on a virtual thread, whose priority is always normal:
 * the OS sees only its carrier, and a carrier inherits its priority from whichever thread made the scheduler add it
 * (normal: the front's acceptor, Jetty's). With the production flags that was nice 0 beside the writer's nice 0, so
 * on JDK 25 the two carriers took the cores' share the lowered platform threads give up on Java 17 and the one
 * event-writer thread fell behind at ~19k req/s (events spilled to the journal in half the 5 s slices, and stored
 * throughput trailed served by 5–10 %: docs/performance.md, session 53). The carriers' thread group caps the
 * priority of every carrier made later (ThreadGroup's maximum), and those already running are lowered.
 *
 * <p>Without {@code -XX:ThreadPriorityPolicy=1} (bin/jvm-flags) the JVM ignores thread priorities and this changes
 * nothing the OS sees; on Java 17 there are no carriers.
 */
public final class CarrierPriority {
    private static final String CARRIER_CLASS = "jdk.internal.misc.CarrierThread";

    private CarrierPriority() {
    }

    /**
     * Caps the carriers at {@code priority}, now and for carriers the scheduler adds later. Returns the carriers
     * lowered (at least one where the JVM has virtual threads: a virtual thread is run here so one exists), 0 on
     * Java 17.
     */
    public static int lowerTo(int priority) {
        if (!VirtualThreads.areSupported()) {
            return 0;
        }
        CompletableFuture<Void> ran = new CompletableFuture<>();
        VirtualThreads.getNamedVirtualThreadsExecutor("detour-carrier-probe").execute(() -> ran.complete(null));
        try {
            ran.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        } catch (ExecutionException | TimeoutException e) {
            return 0;
        }
        List<Thread> before = carriers();
        if (before.isEmpty()) {
            return 0;
        }
        // first the group: a carrier the scheduler adds from now on is made at most this priority; then every
        // carrier running, looked up again so none added meanwhile keeps a higher one
        before.get(0).getThreadGroup().setMaxPriority(priority);
        List<Thread> carriers = carriers();
        for (Thread t : carriers) {
            if (t.getPriority() > priority) {
                t.setPriority(priority);
            }
        }
        return carriers.size();
    }

    /** The scheduler's carrier threads running now (platform threads, so among all live ones). */
    private static List<Thread> carriers() {
        List<Thread> found = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (CARRIER_CLASS.equals(t.getClass().getName())) {
                found.add(t);
            }
        }
        return found;
    }
}
