package dev.detour.adapter.api;

import dev.detour.gateway.live.DatabaseHealth;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * /healthz (process up) and /readyz (database reachable, migrations applied) — SPEC O-2. D-1: while
 * the database is away /readyz says since when ({@code database: unavailable since …}) and stays
 * ready for traffic as long as the snapshot is younger than {@link DatabaseHealth#SNAPSHOT_MAX_AGE}.
 */
public final class HealthServlet extends HttpServlet {
    private final BooleanSupplier ready;
    private final DatabaseHealth health;
    private final Supplier<Duration> snapshotAge;

    public HealthServlet(BooleanSupplier ready) {
        this(ready, DatabaseHealth.alwaysUp(), () -> Duration.ZERO);
    }

    public HealthServlet(BooleanSupplier ready, DatabaseHealth health, Supplier<Duration> snapshotAge) {
        this.ready = ready;
        this.health = health;
        this.snapshotAge = snapshotAge;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain;charset=utf-8");
        if (request.getRequestURI().endsWith("/healthz")) {
            response.setStatus(200);
            response.getWriter().write("ok\n");
            return;
        }
        // a known outage answers from memory; otherwise one bounded check (which may find the outage)
        boolean ok = !health.available() || ready.getAsBoolean();
        DatabaseHealth.Readiness readiness = health.readiness(snapshotAge.get());
        if (readiness.unavailableSince() != null) {
            response.setStatus(readiness.ready() ? 200 : 503);
            response.getWriter().write((readiness.ready() ? "ok" : "not ready") + "\ndatabase: unavailable since "
                    + readiness.unavailableSince() + "\n");
            return;
        }
        response.setStatus(ok ? 200 : 503);
        response.getWriter().write(ok ? "ok\n" : "not ready\n");
    }
}
