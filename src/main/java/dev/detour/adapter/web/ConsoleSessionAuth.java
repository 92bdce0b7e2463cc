package dev.detour.adapter.web;

import dev.detour.adapter.view.PageSession;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;

/**
 * U-1 console session and CSRF, for the console and for any servlet that accepts the console
 * session (the admin API): the signed-in user lives in the servlet container session; each
 * session has one random CSRF token that every state-changing request must echo as the
 * {@value #CSRF_HEADER} header or the {@value #CSRF_FIELD} form field.
 */
public final class ConsoleSessionAuth implements PageSession {
    public static final String CSRF_HEADER = PageSession.CSRF_HEADER;
    public static final String CSRF_FIELD = "_csrf";
    private static final String USER_ATTRIBUTE = "detour.console.user";
    private static final String CSRF_ATTRIBUTE = "detour.console.csrf";
    private static final Set<String> STATE_CHANGING = Set.of("POST", "PUT", "DELETE", "PATCH");

    private final SecureRandom random = new SecureRandom();
    private final Duration signedInIdle;
    private final Duration anonymousIdle;
    private final AnonymousSessions anonymous;

    public ConsoleSessionAuth(Duration signedInIdle, Duration anonymousIdle, AnonymousSessions anonymous) {
        this.signedInIdle = signedInIdle;
        this.anonymousIdle = anonymousIdle;
        this.anonymous = anonymous;
    }

    /**
     * Signed-in sessions idle out after 12 h; a session opened only for the sign-in form after 10 min
     * and at most {@code maxAnonymous} of those at once.
     */
    public static ConsoleSessionAuth standard(int maxAnonymous) {
        return new ConsoleSessionAuth(Duration.ofHours(12), Duration.ofMinutes(10),
                new AnonymousSessions(maxAnonymous));
    }

    /** the anonymous session count (register it as the session handler's listener). */
    public AnonymousSessions anonymousSessions() {
        return anonymous;
    }

    /** The console user of this request's session, if it has signed in. Never creates a session. */
    @Override
    public Optional<String> signedInUser(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session == null ? Optional.empty() : Optional.ofNullable((String) session.getAttribute(USER_ATTRIBUTE));
    }

    /**
     * True when the request carries its session's CSRF token in the header or the form field
     * (constant-time compare); false without a session. Call it for state-changing methods only.
     */
    public boolean csrfValid(HttpServletRequest request) {
        Optional<String> expected = existingCsrfToken(request);
        if (expected.isEmpty()) {
            return false;
        }
        String supplied = request.getHeader(CSRF_HEADER);
        if (supplied == null || supplied.isEmpty()) {
            supplied = request.getParameter(CSRF_FIELD);
        }
        return supplied != null && MessageDigest.isEqual(
                expected.get().getBytes(StandardCharsets.US_ASCII), supplied.getBytes(StandardCharsets.UTF_8));
    }

    public static boolean isStateChanging(HttpServletRequest request) {
        return STATE_CHANGING.contains(request.getMethod());
    }

    @Override
    public Optional<String> existingCsrfToken(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session == null ? Optional.empty() : Optional.ofNullable((String) session.getAttribute(CSRF_ATTRIBUTE));
    }

    /** The session's CSRF token, opening a short-lived anonymous session if needed (the sign-in form). */
    public String csrfToken(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session == null) {
            session = request.getSession(true);
            session.setMaxInactiveInterval((int) anonymousIdle.toSeconds());
            anonymous.opened(session);
        }
        String token = (String) session.getAttribute(CSRF_ATTRIBUTE);
        if (token == null) {
            token = newToken();
            session.setAttribute(CSRF_ATTRIBUTE, token);
        }
        return token;
    }

    /** Session fixation defence: a new session id and a new CSRF token at every sign-in. */
    public void signIn(HttpServletRequest request, String username) {
        HttpSession session = request.getSession(true);
        anonymous.signedIn(session);
        request.changeSessionId();
        session.setAttribute(USER_ATTRIBUTE, username);
        session.setAttribute(CSRF_ATTRIBUTE, newToken());
        session.setMaxInactiveInterval((int) signedInIdle.toSeconds());
    }

    public void signOut(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
    }

    private String newToken() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
