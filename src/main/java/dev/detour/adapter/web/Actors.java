package dev.detour.adapter.web;

import jakarta.servlet.http.HttpServletRequest;

/** The console user behind a form post, for the audit log. */
final class Actors {
    private Actors() {
    }

    static String of(HttpServletRequest request) {
        var session = request.getSession(false);
        Object user = session == null ? null : session.getAttribute("detour.console.user");
        return user == null ? "console" : user.toString();
    }
}
