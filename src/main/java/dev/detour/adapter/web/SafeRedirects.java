package dev.detour.adapter.web;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Only same-site relative paths are followed after sign-in or a language switch (no open redirect). */
public final class SafeRedirects {
    private SafeRedirects() {
    }

    /** {@code next} when it is a relative path such as {@code /accounts?x=1}, else {@code /}. */
    public static String relativeOrHome(String next) {
        if (next == null || !next.startsWith("/") || next.startsWith("//") || next.contains("\\")
                || next.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return "/";
        }
        try {
            URI uri = new URI(next);
            return uri.getScheme() == null && uri.getRawAuthority() == null ? next : "/";
        } catch (URISyntaxException e) {
            return "/";
        }
    }

    public static String loginUrl(String next) {
        String safe = relativeOrHome(next);
        return safe.equals("/") ? "/login" : "/login?next=" + URLEncoder.encode(safe, StandardCharsets.UTF_8);
    }
}
