package dev.detour.adapter.api;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Optional;

/**
 * Who is calling {@code /admin/api} (SPEC §9): the bearer token ({@link BearerTokenAuthenticator},
 * actor "admin-token") or, plugged in by the console, a signed-in session whose CSRF token
 * checks out (actor = the console user). Empty = not authenticated → 401.
 */
public interface AdminAuthenticator {
    Optional<String> actor(HttpServletRequest request);

    /** The first authenticator that recognises the request wins. */
    static AdminAuthenticator anyOf(List<AdminAuthenticator> authenticators) {
        List<AdminAuthenticator> copy = List.copyOf(authenticators);
        return request -> {
            for (AdminAuthenticator a : copy) {
                Optional<String> actor = a.actor(request);
                if (actor.isPresent()) {
                    return actor;
                }
            }
            return Optional.empty();
        };
    }
}
