package dev.detour.security;

import java.net.URI;
import java.util.List;

/**
 * targets an attacker puts in {@code next} (or a request path) to leave the origin after a
 * redirect: protocol-relative forms, backslashes browsers read as slashes, dot segments that
 * collapse into {@code //}, encoded separators and dots, double encoding, controls, look-alikes.
 */
public final class RedirectPayloads {
    public static final List<String> OFF_ORIGIN = List.of(
            "//evil.example",
            "///evil.example",
            "////evil.example/x",
            "/\\evil.example",
            "/\\/evil.example",
            "\\/evil.example",
            "\\\\evil.example",
            "/.//evil.example",
            "/./\\evil.example",
            "/..//evil.example",
            "/a/..//evil.example",
            "/a/b/../..//evil.example",
            "/x/../..//evil.example",
            "/%2e//evil.example",
            "/%2E%2E//evil.example",
            "/.%2e//evil.example",
            "/a/%2e%2e//evil.example",
            "/%2f/evil.example",
            "/%2F%2Fevil.example",
            "/%5cevil.example",
            "/%5C%5Cevil.example",
            "/%252f%252fevil.example",
            "/%2e%2e%2f%2fevil.example",
            "https://evil.example/",
            "http:evil.example",
            "HTTPS://evil.example",
            "//evil.example@127.0.0.1/",
            "javascript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "evil.example",
            "./evil.example",
            "%2f%2fevil.example",
            "/\t/evil.example",
            "/ /evil.example",
            "/\r\n//evil.example",
            "/\u3002/evil.example",
            "/\uff0f\uff0fevil.example",
            "//evil.example/%2e%2e",
            "/\"><script>alert(1)</script>");

    /** Odd but same-origin: they may be followed, and must stay on the origin when they are. */
    public static final List<String> SAME_ORIGIN = List.of(
            "/accounts",
            "/accounts?status=error&q=//evil.example",
            "/requests#//evil.example",
            "/a/./b",
            "/a/../keys",
            "/%09/evil.example");

    private RedirectPayloads() {
    }

    /** A Location header (or a {@code next} it carries) that a browser resolves to the origin {@code base}. */
    public static boolean staysOn(String base, String location) {
        if (location.isEmpty() || !location.startsWith("/") || location.startsWith("//") || location.contains("\\")
                || location.chars().anyMatch(c -> c <= 0x20 || c >= 0x7f)) {
            return false;
        }
        URI origin = URI.create(base + "/");
        URI target = origin.resolve(location);
        return origin.getScheme().equals(target.getScheme()) && origin.getRawAuthority().equals(target.getRawAuthority());
    }
}
