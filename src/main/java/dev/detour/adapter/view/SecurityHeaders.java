package dev.detour.adapter.view;

import jakarta.servlet.http.HttpServletResponse;

/** Headers every console page carries: no framing, no sniffing, no caching, same-origin scripts only. */
public final class SecurityHeaders {
    private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'";

    private SecurityHeaders() {
    }

    public static void apply(HttpServletResponse response) {
        response.setHeader("Content-Security-Policy", CSP);
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "same-origin");
        response.setHeader("Cache-Control", "no-store");
    }
}
