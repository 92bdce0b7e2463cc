package dev.detour.gateway.live;

import dev.detour.gateway.port.DatabaseUnavailable;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * D-1: the few best-effort reads the request path makes on a cache miss (an S-6 session binding,
 * a P-10 response binding another instance wrote) — skipped while the database is known to be
 * away, and otherwise waited for at most {@link #DEADLINE}; the read itself runs on a small pool
 * of its own, so a frozen database holds those threads (until the driver's socket timeout), never
 * a request thread. A read that does not answer in time counts as "not found".
 */
public final class QuickReads implements AutoCloseable {
    /** A binding read takes about a millisecond on a healthy database; a quarter second is plenty. */
    public static final Duration DEADLINE = Duration.ofMillis(250);

    private final DatabaseHealth health;
    private final ThreadPoolExecutor pool;

    private QuickReads(DatabaseHealth health, ThreadPoolExecutor pool) {
        this.health = health;
        this.pool = pool;
    }

    public static QuickReads bounded(DatabaseHealth health) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(4, 4, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(64),
                r -> {
                    Thread t = new Thread(r, "detour-quick-read");
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return new QuickReads(health, pool);
    }

    /** Reads on the calling thread, unbounded (the bare gateway in tests; no database behind it). */
    public static QuickReads direct() {
        return new QuickReads(DatabaseHealth.alwaysUp(), null);
    }

    /** The read's answer, or {@code fallback} when the database is away, busy or slower than the deadline. */
    public <T> T read(Supplier<T> read, T fallback) {
        if (pool == null) {
            return read.get();
        }
        if (!health.available()) {
            return fallback;
        }
        Future<T> answer;
        try {
            answer = pool.submit(read::get);
        } catch (RejectedExecutionException e) {
            return fallback; // every reader is stuck on the database already
        }
        try {
            return answer.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return fallback;
        } catch (ExecutionException e) {
            if (DatabaseUnavailable.isBehind(e.getCause())) {
                health.failed(e.getCause());
                return fallback;
            }
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fallback;
        }
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
        }
    }
}
