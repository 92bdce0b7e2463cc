package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.server.TakesUploads;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/**
 * Wraps a console screen servlet (U-1): no signed-in session → to the sign-in page (htmx
 * requests get {@code HX-Redirect}); a state-changing request without the session's CSRF token
 * → 403 with a page that says why; otherwise the screen runs.
 */
public final class ConsoleGate extends HttpServlet implements TakesUploads {
    private final HttpServlet screen;
    private final ConsoleSessionAuth auth;
    private final View view;

    public ConsoleGate(HttpServlet screen, ConsoleSessionAuth auth, View view) {
        this.screen = screen;
        this.auth = auth;
        this.view = view;
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        screen.init(config);
    }

    /** The screen's upload limits: the gate reads the CSRF field of a multipart form before the screen runs. */
    @Override
    public MultipartConfigElement uploads() {
        return screen instanceof TakesUploads takes ? takes.uploads() : null;
    }

    @Override
    public void uploadRefused(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ((TakesUploads) screen).uploadRefused(request, response);
    }

    @Override
    public void destroy() {
        screen.destroy();
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (auth.signedInUser(request).isEmpty()) {
            toSignIn(request, response);
        } else if (screen instanceof TakesUploads takes && takes.uploads() != null
                && TakesUploads.refusedUpload(request)) {
            takes.uploadRefused(request, response); // its CSRF field is unreadable too: answered, nothing done
        } else if (ConsoleSessionAuth.isStateChanging(request) && !auth.csrfValid(request)) {
            forbidden(view, request, response, "error.csrf");
        } else {
            screen.service(request, response);
        }
    }

    private static void toSignIn(HttpServletRequest request, HttpServletResponse response) {
        boolean safeMethod = "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod());
        String login = SafeRedirects.loginUrl(safeMethod ? View.requestPath(request) : "/");
        if (View.isHtmx(request)) {
            // a swap of the sign-in page into a fragment would be wrong: let htmx navigate
            response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            response.setHeader("HX-Redirect", login);
        } else {
            response.setStatus(HttpServletResponse.SC_SEE_OTHER);
            response.setHeader("Location", login);
        }
    }

    /** 403 page naming the reason (a message key), e.g. a missing or stale CSRF token. */
    static void forbidden(View view, HttpServletRequest request, HttpServletResponse response, String reasonKey)
            throws IOException {
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        view.render(request, response, "error/forbidden", Map.of("reasonKey", reasonKey), null);
    }
}
