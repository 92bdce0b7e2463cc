package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.ConsoleUsers;
import dev.detour.admin.SignInResult;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * U-1 sign-in. The form is CSRF-protected by a token of a short-lived anonymous session (so no
 * one can sign a victim into the attacker's account); failures are throttled per address and
 * per username and answered with one generic message.
 */
public final class LoginServlet extends HttpServlet {
    private final ConsoleUsers users;
    private final ConsoleSessionAuth auth;
    private final View view;

    public LoginServlet(ConsoleUsers users, ConsoleSessionAuth auth, View view) {
        this.users = users;
        this.auth = auth;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String next = SafeRedirects.relativeOrHome(request.getParameter("next"));
        if (auth.signedInUser(request).isPresent()) {
            seeOther(response, next);
            return;
        }
        auth.csrfToken(request);
        view.render(request, response, "auth/login", form(next, "", null, 0), null);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!auth.csrfValid(request)) {
            ConsoleGate.forbidden(view, request, response, "error.csrf.login");
            return;
        }
        String next = SafeRedirects.relativeOrHome(request.getParameter("next"));
        String username = request.getParameter("username");
        SignInResult result = users.signIn(username, request.getParameter("password"), request.getRemoteAddr());
        if (result.signedIn()) {
            auth.signIn(request, result.username());
            seeOther(response, next);
            return;
        }
        boolean throttled = result.outcome() == SignInResult.Outcome.THROTTLED;
        if (throttled) {
            response.setStatus(429);
            response.setHeader("Retry-After", Long.toString(result.retryAfter().toSeconds()));
        }
        long minutes = Math.max(1, (result.retryAfter().toSeconds() + 59) / 60);
        view.render(request, response, "auth/login",
                form(next, username, throttled ? "login.error.throttled" : "login.error.invalid", minutes), null);
    }

    /** the checked target as it is; {@code sendRedirect} would normalise it again after the check. */
    private static void seeOther(HttpServletResponse response, String location) {
        response.setStatus(HttpServletResponse.SC_SEE_OTHER);
        response.setHeader("Location", location);
    }

    private static Map<String, Object> form(String next, String username, String errorKey, long retryMinutes) {
        Map<String, Object> model = new HashMap<>();
        model.put("next", next);
        model.put("username", username == null ? "" : username);
        model.put("errorKey", errorKey);
        model.put("retryMinutes", retryMinutes);
        return model;
    }
}
