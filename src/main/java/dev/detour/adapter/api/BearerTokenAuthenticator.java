package dev.detour.adapter.api;

import dev.detour.adapter.crypto.AdminToken;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/** {@code Authorization: Bearer <admin token>}, compared in constant time by {@link AdminToken}. */
public final class BearerTokenAuthenticator implements AdminAuthenticator {
    public static final String ACTOR = "admin-token";
    private static final String PREFIX = "bearer ";
    private final AdminToken token;

    public BearerTokenAuthenticator(AdminToken token) {
        this.token = token;
    }

    @Override
    public Optional<String> actor(HttpServletRequest request) {
        String presented = presented(request);
        return presented != null && token.matches(presented) ? Optional.of(ACTOR) : Optional.empty();
    }

    /** The token after {@code Bearer }, or null when the request carries none (X-3 counts only real tries). */
    public static String presented(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null || header.length() <= PREFIX.length()
                || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return null;
        }
        String token = header.substring(PREFIX.length()).trim();
        return token.isEmpty() ? null : token;
    }
}
