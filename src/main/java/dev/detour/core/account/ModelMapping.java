package dev.detour.core.account;

/** {@code from} is the client-facing name, {@code to} the upstream name; {@code from:"*"} is a catch-all. */
public record ModelMapping(String from, String to) {
    public static final String CATCH_ALL = "*";

    public boolean isCatchAll() {
        return CATCH_ALL.equals(from);
    }
}
