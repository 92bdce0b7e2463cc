package dev.detour.adapter.web;

import dev.detour.gateway.DatabaseHealth;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * D-1: puts the start of a database outage on every console request, so the shared layout shows
 * its banner on every page ({@code databaseUnavailableSince}); the page itself is unchanged.
 */
public final class DatabaseNotice extends HttpServlet {
    /** The request attribute {@link dev.detour.adapter.view.View} reads (an {@link java.time.Instant}). */
    public static final String ATTRIBUTE = "detour.databaseUnavailableSince";
    private final HttpServlet screen;
    private final DatabaseHealth health;

    public DatabaseNotice(HttpServlet screen, DatabaseHealth health) {
        this.screen = screen;
        this.health = health;
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        screen.init(config);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        request.setAttribute(ATTRIBUTE, health.unavailableSince());
        screen.service(request, response);
    }

    @Override
    public void destroy() {
        screen.destroy();
        super.destroy();
    }
}
