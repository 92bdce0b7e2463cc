package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.gateway.live.DatabaseHealth;
import dev.detour.gateway.live.StateWrites;
import dev.detour.server.TakesUploads;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;

/**
 * D-1 for the console and the admin API: puts the start of a database outage on every request, so
 * the shared layout shows its banner on every page ({@code databaseUnavailableSince}), and lets the
 * state changes this instance already applied in memory reach the database first (read-your-writes:
 * an operator who just saw a failure finds it on the account), bounded, and skipped during an outage.
 */
public final class DatabaseNotice extends HttpServlet implements TakesUploads {
    /** The request attribute {@link View} reads (an {@link java.time.Instant}). */
    public static final String ATTRIBUTE = View.DATABASE_UNAVAILABLE_SINCE;
    /** How long a page waits for this instance's own queued state writes at most. */
    static final Duration OWN_WRITES_WAIT = Duration.ofSeconds(2);
    private final HttpServlet screen;
    private final DatabaseHealth health;
    private final StateWrites ownWrites;

    public DatabaseNotice(HttpServlet screen, DatabaseHealth health, StateWrites ownWrites) {
        this.screen = screen;
        this.health = health;
        this.ownWrites = ownWrites;
    }

    /** The wrapped screen's upload limits, so its multipart form reaches it (and the gate's CSRF check) parsed. */
    @Override
    public MultipartConfigElement uploads() {
        return screen instanceof TakesUploads takes ? takes.uploads() : null;
    }

    @Override
    public void uploadRefused(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ((TakesUploads) screen).uploadRefused(request, response);
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        screen.init(config);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        ownWrites.awaitDrained(health, OWN_WRITES_WAIT);
        request.setAttribute(ATTRIBUTE, health.unavailableSince());
        screen.service(request, response);
    }

    @Override
    public void destroy() {
        screen.destroy();
        super.destroy();
    }
}
