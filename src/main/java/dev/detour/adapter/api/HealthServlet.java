package dev.detour.adapter.api;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.BooleanSupplier;

/** /healthz (process up) and /readyz (database reachable, migrations applied) — SPEC O-2. */
public final class HealthServlet extends HttpServlet {
    private final BooleanSupplier ready;

    public HealthServlet(BooleanSupplier ready) {
        this.ready = ready;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        boolean ok = request.getRequestURI().endsWith("/healthz") || ready.getAsBoolean();
        response.setStatus(ok ? 200 : 503);
        response.setContentType("text/plain;charset=utf-8");
        response.getWriter().write(ok ? "ok\n" : "not ready\n");
    }
}
