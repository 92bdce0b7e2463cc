package dev.detour.adapter.web;

import dev.detour.adapter.proxy.ClientAddress;
import dev.detour.adapter.view.View;
import dev.detour.admin.ConsoleUsers;
import dev.detour.admin.SignInResult;
import dev.detour.core.security.FailureDelays;
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
    private final ClientAddress clientAddress;

    public LoginServlet(ConsoleUsers users, ConsoleSessionAuth auth, View view, ClientAddress clientAddress) {
        this.users = users;
        this.auth = auth;
        this.view = view;
        this.clientAddress = clientAddress;
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
        SignInResult result = users.signIn(username, request.getParameter("password"),
                clientAddress.of(request));
        if (result.signedIn()) {
            auth.signIn(request, result.username());
            seeOther(response, next);
            return;
        }
        if (result.outcome() != SignInResult.Outcome.THROTTLED) {
            view.render(request, response, "auth/login", form(next, username, "login.error.invalid", 0), null);
            return;
        }
        // answered at once (no sleeping thread); the wait is seconds at first, minutes at the cap
        long seconds = FailureDelays.retryAfterSeconds(result.retryAfter());
        response.setStatus(429);
        response.setHeader("Retry-After", Long.toString(seconds));
        view.render(request, response, "auth/login", seconds < 60
                ? form(next, username, "login.error.throttled.seconds", seconds)
                : form(next, username, "login.error.throttled", (seconds + 59) / 60), null);
    }

    /** the checked target as it is; {@code sendRedirect} would normalise it again after the check. */
    private static void seeOther(HttpServletResponse response, String location) {
        response.setStatus(HttpServletResponse.SC_SEE_OTHER);
        response.setHeader("Location", location);
    }

    private static Map<String, Object> form(String next, String username, String errorKey, long retryIn) {
        Map<String, Object> model = new HashMap<>();
        model.put("next", next);
        model.put("username", username == null ? "" : username);
        model.put("errorKey", errorKey);
        model.put("retryIn", retryIn);
        return model;
    }
}
