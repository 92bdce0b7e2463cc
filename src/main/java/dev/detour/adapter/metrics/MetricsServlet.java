package dev.detour.adapter.metrics;

import dev.detour.adapter.api.AdminAuthenticator;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;

/**
 * {@code GET /metrics} (O-2). Open when Detour listens on a loopback address only (nothing else can
 * reach it); on any other bind it needs {@code Authorization: Bearer <admin token>}.
 */
public final class MetricsServlet extends HttpServlet {
    private final transient Metrics metrics;
    private final transient Clock clock;
    private final boolean open;
    private final transient AdminAuthenticator token;

    public MetricsServlet(Metrics metrics, Clock clock, boolean loopbackBind, AdminAuthenticator token) {
        this.metrics = metrics;
        this.clock = clock;
        this.open = loopbackBind;
        this.token = token;
    }

    /** True for 127.0.0.0/8, ::1 and localhost: no other host can scrape. */
    public static boolean isLoopback(String bind) {
        return bind.equals("localhost") || bind.startsWith("127.") || bind.equals("::1") || bind.equals("[::1]");
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader("Cache-Control", "no-store");
        if (!open && token.actor(request).isEmpty()) {
            response.setStatus(401);
            response.setHeader("WWW-Authenticate", "Bearer");
            response.setContentType("text/plain;charset=utf-8");
            response.getOutputStream().write("metrics need the admin bearer token on a non-loopback bind\n"
                    .getBytes(StandardCharsets.UTF_8));
            return;
        }
        response.setContentType(PrometheusText.CONTENT_TYPE);
        response.getOutputStream().write(metrics.render(clock.instant()).getBytes(StandardCharsets.UTF_8));
    }
}
