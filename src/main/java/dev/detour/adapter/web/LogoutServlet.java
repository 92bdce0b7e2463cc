package dev.detour.adapter.web;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** POST /logout (behind {@link ConsoleGate}, so it needs the CSRF token): ends the session. */
public final class LogoutServlet extends HttpServlet {
    private final ConsoleSessionAuth auth;

    public LogoutServlet(ConsoleSessionAuth auth) {
        this.auth = auth;
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) {
        auth.signOut(request);
        response.setStatus(HttpServletResponse.SC_SEE_OTHER);
        response.setHeader("Location", "/login");
    }
}
