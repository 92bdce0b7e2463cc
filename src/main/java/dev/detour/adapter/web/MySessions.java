package dev.detour.adapter.web;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * E-1 key-holder sessions, separate from the console's: their own cookie ({@value #COOKIE},
 * HttpOnly, SameSite=Strict, path {@code /my}), holding only the key id, 12 h idle. Each session
 * has a CSRF token its forms echo; the sign-in form uses a double-submit cookie.
 */
final class MySessions {
    static final String COOKIE = "detour_my";
    static final String LOGIN_CSRF_COOKIE = "detour_my_csrf";
    static final String CSRF_FIELD = "_csrf";
    private static final Duration IDLE = Duration.ofHours(12);

    record Session(long keyId, String csrf, Instant lastSeen) {
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final Clock clock;

    MySessions(Clock clock) {
        this.clock = clock;
    }

    Optional<Session> current(HttpServletRequest request) {
        String token = cookie(request, COOKIE);
        Session s = token == null ? null : sessions.get(token);
        if (s == null || s.lastSeen().plus(IDLE).isBefore(clock.instant())) {
            return Optional.empty();
        }
        Session touched = new Session(s.keyId(), s.csrf(), clock.instant());
        sessions.put(token, touched);
        return Optional.of(touched);
    }

    void signIn(HttpServletRequest request, HttpServletResponse response, long keyId) {
        sessions.values().removeIf(s -> s.lastSeen().plus(IDLE).isBefore(clock.instant()));
        String token = newToken();
        sessions.put(token, new Session(keyId, newToken(), clock.instant()));
        setCookie(request, response, COOKIE, token, -1);
    }

    void signOut(HttpServletRequest request, HttpServletResponse response) {
        String token = cookie(request, COOKIE);
        if (token != null) {
            sessions.remove(token);
        }
        setCookie(request, response, COOKIE, "", 0);
    }

    /** The sign-in form's token: reuses the browser's cookie or sets a new one. */
    String loginCsrf(HttpServletRequest request, HttpServletResponse response) {
        String token = cookie(request, LOGIN_CSRF_COOKIE);
        if (token == null) {
            token = newToken();
            setCookie(request, response, LOGIN_CSRF_COOKIE, token, -1);
        }
        return token;
    }

    static boolean loginCsrfValid(HttpServletRequest request) {
        return same(cookie(request, LOGIN_CSRF_COOKIE), request.getParameter(CSRF_FIELD));
    }

    static boolean csrfValid(Session session, HttpServletRequest request) {
        return same(session.csrf(), request.getParameter(CSRF_FIELD));
    }

    private static boolean same(String expected, String supplied) {
        return expected != null && supplied != null && MessageDigest.isEqual(
                expected.getBytes(StandardCharsets.UTF_8), supplied.getBytes(StandardCharsets.UTF_8));
    }

    private static String cookie(HttpServletRequest request, String name) {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie c : cookies) {
                if (name.equals(c.getName()) && !c.getValue().isEmpty()) {
                    return c.getValue();
                }
            }
        }
        return null;
    }

    /** Secure on https (directly or through a trusted proxy, O-3), like the console's session cookie. */
    private static void setCookie(HttpServletRequest request, HttpServletResponse response, String name, String value,
            int maxAge) {
        Cookie c = new Cookie(name, value);
        c.setPath("/my");
        c.setHttpOnly(true);
        c.setSecure(request.isSecure());
        c.setMaxAge(maxAge);
        c.setAttribute("SameSite", "Strict");
        response.addCookie(c);
    }

    private String newToken() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
