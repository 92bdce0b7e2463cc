package dev.detour.core.account;

/**
 * The upstream name a request is charged under (SPEC §1): the mapping's {@code to} (or the
 * requested name for pass-through) with any {@code [1m]} suffix stripped, so a beta-header variant
 * shares the base model's record.
 */
public final class ModelKey {
    private static final String ONE_M = "[1m]";

    private ModelKey() {
    }

    public static String of(String upstreamName) {
        return upstreamName.endsWith(ONE_M)
                ? upstreamName.substring(0, upstreamName.length() - ONE_M.length())
                : upstreamName;
    }
}
