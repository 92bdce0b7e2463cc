package dev.detour.adapter.view;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/**
 * What every page shows of the console session (U-1): who is signed in and the session's CSRF
 * token. The web layer's session store implements it, so the view does not depend on the web layer.
 */
public interface PageSession {
    /** The header an htmx request echoes the CSRF token in. */
    String CSRF_HEADER = "X-CSRF-Token";

    Optional<String> signedInUser(HttpServletRequest request);

    /** The session's CSRF token, if a session exists; never creates one. */
    Optional<String> existingCsrfToken(HttpServletRequest request);
}
