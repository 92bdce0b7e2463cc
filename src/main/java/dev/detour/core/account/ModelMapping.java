package dev.detour.core.account;

/**
 * {@code from} is the client-facing name, {@code to} the upstream name (P-12).
 * <ul>
 * <li>{@code from:"*"} is the catch-all; {@code from:"claude-sonnet-*"} (a single {@code *}, last) is a
 * prefix pattern that takes every requested name starting with {@code claude-sonnet-} (the {@code *}
 * matches zero or more characters);</li>
 * <li>{@code to:"*"} (patterns only) means "the requested name, unchanged".</li>
 * </ul>
 * Which mapping wins for a requested name is {@link ModelMappings#upstreamNameFor}'s rule.
 */
public record ModelMapping(String from, String to) {
    public static final String CATCH_ALL = "*";

    public boolean isCatchAll() {
        return CATCH_ALL.equals(from);
    }

    /** The catch-all or a prefix pattern: not a concrete client-facing name. */
    public boolean isPattern() {
        return from.endsWith(CATCH_ALL);
    }

    /** A pattern whose upstream name is the requested one ({@code to:"*"}). */
    public boolean passesNameThrough() {
        return isPattern() && CATCH_ALL.equals(to);
    }

    /** The fixed part of a pattern ({@code ""} for the catch-all); the whole name for an exact mapping. */
    public String prefix() {
        return isPattern() ? from.substring(0, from.length() - 1) : from;
    }

    /** True when this mapping takes the requested name: equal for an exact mapping, starts with the prefix for a pattern. */
    public boolean matches(String requested) {
        return isPattern() ? requested.startsWith(prefix()) : from.equals(requested);
    }

    /** The upstream name for a requested name this mapping {@link #matches}. */
    public String upstreamFor(String requested) {
        return passesNameThrough() ? requested : to;
    }
}
