package dev.detour.adapter.web;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * only same-origin paths are followed after sign-in or a language switch (no open redirect).
 * A target is judged as a browser would read it, after the same normalisation: an encoded dot
 * ({@code %2e}) is a dot and dot segments collapse ({@code /.//evil.example} is {@code //evil.example},
 * another origin). What survives is returned in its normalised form, so the Location header says
 * exactly what was checked; servlets set it themselves rather than through
 * {@code sendRedirect}, which would normalise it again after the check.
 */
public final class SafeRedirects {
    private static final String HOME = "/";
    private static final String NOT_IN_URIS = "\"<>\\^`{|}";

    private SafeRedirects() {
    }

    /** {@code next} when it is a same-origin path such as {@code /accounts?x=1}, else {@code /}. */
    public static String relativeOrHome(String next) {
        if (next == null || next.isEmpty() || !next.startsWith("/") || !uriCharacters(next) || next.indexOf('\\') >= 0) {
            return HOME;
        }
        int end = firstOf(next, '?', '#');
        String path = next.substring(0, end);
        String lower = path.toLowerCase(Locale.ROOT);
        // an encoded separator or percent sign means a second decoding could change the path's shape
        if (lower.contains("%2f") || lower.contains("%5c") || lower.contains("%25")) {
            return HOME;
        }
        String normalised = removeDotSegments(lower.contains("%2e") ? decodeDots(path) : path);
        if (normalised == null || !normalised.startsWith("/") || normalised.contains("//")) {
            return HOME;
        }
        return normalised + next.substring(end);
    }

    public static String loginUrl(String next) {
        String safe = relativeOrHome(next);
        return safe.equals(HOME) ? "/login" : "/login?next=" + URLEncoder.encode(safe, StandardCharsets.UTF_8);
    }

    /**
     * Characters a URI may hold unencoded (RFC 3986): no controls, spaces, non-ASCII look-alikes
     * or quotes and angle brackets, so a Location header is exactly what a browser will follow.
     */
    private static boolean uriCharacters(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c >= 0x7f || NOT_IN_URIS.indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }

    private static int firstOf(String s, char a, char b) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == a || s.charAt(i) == b) {
                return i;
            }
        }
        return s.length();
    }

    /** Browsers treat {@code %2e} in a path segment as {@code .} when they remove dot segments. */
    private static String decodeDots(String path) {
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < path.length(); i++) {
            if (path.charAt(i) == '%' && i + 2 < path.length() && path.charAt(i + 1) == '2'
                    && (path.charAt(i + 2) == 'e' || path.charAt(i + 2) == 'E')) {
                out.append('.');
                i += 2;
            } else {
                out.append(path.charAt(i));
            }
        }
        return out.toString();
    }

    /**
     * RFC 3986 §5.2.4 on an absolute path: {@code .} segments vanish, {@code ..} drops the segment
     * before it; null when {@code ..} would climb above the root (a browser clamps, but nothing
     * the console links to does that).
     */
    private static String removeDotSegments(String path) {
        Deque<String> kept = new ArrayDeque<>();
        String[] segments = path.substring(1).split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            boolean last = i == segments.length - 1;
            if (segment.equals(".")) {
                if (last) {
                    kept.addLast("");
                }
            } else if (segment.equals("..")) {
                if (kept.pollLast() == null) {
                    return null;
                }
                if (last) {
                    kept.addLast("");
                }
            } else {
                kept.addLast(segment);
            }
        }
        return "/" + String.join("/", kept);
    }
}
