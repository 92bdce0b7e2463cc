package dev.detour.server.front;

import java.util.Objects;

/**
 * A request head inside the subset the front serves (all Strings decoded as US-ASCII). Only
 * {@link RequestHeadParser} makes one, after every rule of the subset held, so whoever serves it need not
 * check the head's syntax again: the path has no {@code %}, {@code ;}, empty or dot segment, there is exactly
 * one Host, at most one Content-Length, and no header that would change how the body or connection is framed.
 */
public final class RequestHead {
    private final String method;
    private final String path;
    private final String query;
    private final String[] names;
    private final String[] values;
    private final int headerCount;
    private final long contentLength;
    private final boolean close;
    private final int length;

    RequestHead(String method, String path, String query, String[] names, String[] values, int headerCount,
            long contentLength, boolean close, int length) {
        this.method = method;
        this.path = path;
        this.query = query;
        this.names = names;
        this.values = values;
        this.headerCount = headerCount;
        this.contentLength = contentLength;
        this.close = close;
        this.length = length;
    }

    /** {@code "GET"} or {@code "POST"}. */
    public String method() {
        return method;
    }

    /** The origin-form path as sent; never decoded, as the subset has no {@code %} in paths. */
    public String path() {
        return path;
    }

    /** The raw query after the first {@code '?'}, {@code ""} for a bare {@code '?'}, or null when none. */
    public String query() {
        return query;
    }

    public int headerCount() {
        return headerCount;
    }

    /** The {@code i}th header's name as sent (case preserved), in arrival order. */
    public String name(int i) {
        return names[Objects.checkIndex(i, headerCount)];
    }

    /** The {@code i}th header's value, trimmed of leading and trailing SP and HTAB. */
    public String value(int i) {
        return values[Objects.checkIndex(i, headerCount)];
    }

    /** The first value whose name equals {@code name} ignoring ASCII case, or null. */
    public String header(String name) {
        for (int i = 0; i < headerCount; i++) {
            if (equalsIgnoreAsciiCase(names[i], name)) {
                return values[i];
            }
        }
        return null;
    }

    /** The Content-Length, or -1 when the head has none. */
    public long contentLength() {
        return contentLength;
    }

    /** True when a Connection header says {@code close}. */
    public boolean close() {
        return close;
    }

    /** The bytes the head took, its final CRLF CRLF included: where the body (or the next request) starts. */
    public int length() {
        return length;
    }

    @Override
    public String toString() {
        return method + ' ' + path + (query == null ? "" : "?" + query) + " (" + headerCount + " headers, "
                + length + " bytes)";
    }

    // String.equalsIgnoreCase also folds non-ASCII letters (the Kelvin sign equals 'k'); header names are ASCII
    private static boolean equalsIgnoreAsciiCase(String a, String b) {
        int n = a.length();
        if (b.length() != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y && lower(x) != lower(y)) {
                return false;
            }
        }
        return true;
    }

    private static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }
}
