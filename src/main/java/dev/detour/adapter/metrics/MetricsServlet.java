package dev.detour.adapter.metrics;

import dev.detour.adapter.api.AdminAuthenticator;
import dev.detour.adapter.api.BearerTokenAuthenticator;
import dev.detour.adapter.proxy.ClientAddress;
import dev.detour.adapter.security.AuthThrottle;
import dev.detour.core.security.FailureDelays;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

/**
 * {@code GET /metrics} (O-2). Open when Detour listens on a loopback address only (nothing else can
 * reach it) and the request was not relayed by a proxy; on any other bind, or through a proxy, it
 * needs {@code Authorization: Bearer <admin token>}.
 */
public final class MetricsServlet extends HttpServlet {
    private final transient Metrics metrics;
    private final transient Clock clock;
    private final boolean open;
    private final transient AdminAuthenticator token;
    private final transient AuthThrottle tokenFailures;
    private final transient ClientAddress clientAddress;

    /** @param tokenFailures X-3: wrong tokens slow their client address, shared with the admin API */
    public MetricsServlet(Metrics metrics, Clock clock, boolean loopbackBind, AdminAuthenticator token,
            AuthThrottle tokenFailures, ClientAddress clientAddress) {
        this.metrics = metrics;
        this.clock = clock;
        this.open = loopbackBind;
        this.token = token;
        this.tokenFailures = tokenFailures;
        this.clientAddress = clientAddress;
    }

    /** True for 127.0.0.0/8, ::1 and localhost: no other host can scrape. */
    public static boolean isLoopback(String bind) {
        return bind.equals("localhost") || bind.startsWith("127.") || bind.equals("::1") || bind.equals("[::1]");
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader("Cache-Control", "no-store");
        if (!(open && !relayed(request)) && !authorised(request, response)) {
            return;
        }
        response.setContentType(PrometheusText.CONTENT_TYPE);
        response.getOutputStream().write(metrics.render(clock.instant()).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * behind nginx on the same host every request comes from loopback, so the bind alone would
     * open the metrics to anyone nginx forwards (a missing or mistyped {@code location = /metrics}
     * rule). A proxy says it relayed a request by adding X-Forwarded-For; a local scraper does not.
     */
    private static boolean relayed(HttpServletRequest request) {
        return request.getHeader("X-Forwarded-For") != null || request.getHeader("Forwarded") != null;
    }

    /** The admin token, throttled like the admin API's; false once the refusal is written. */
    private boolean authorised(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String ip = clientAddress.of(request);
        String presented = BearerTokenAuthenticator.presented(request);
        Duration wait = tokenFailures.waitForCredential(ip, presented);
        if (!wait.isZero()) {
            long seconds = FailureDelays.retryAfterSeconds(wait);
            response.setStatus(429);
            response.setHeader("Retry-After", Long.toString(seconds));
            response.setContentType("text/plain;charset=utf-8");
            response.getOutputStream().write(("auth.throttled: too many failed admin token checks from this"
                    + " address; retry after " + seconds + " s\n").getBytes(StandardCharsets.UTF_8));
            return false;
        }
        if (token.actor(request).isPresent()) {
            return true;
        }
        if (presented != null) {
            tokenFailures.failedCredential(ip, presented);
        }
        response.setStatus(401);
        response.setHeader("WWW-Authenticate", "Bearer");
        response.setContentType("text/plain;charset=utf-8");
        response.getOutputStream().write("metrics need the admin bearer token on a non-loopback bind or through a proxy\n"
                .getBytes(StandardCharsets.UTF_8));
        return false;
    }
}
