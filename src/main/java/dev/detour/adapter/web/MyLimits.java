package dev.detour.adapter.web;

import java.util.ArrayList;
import java.util.List;

/**
 * U-9: the limits a key holder sees on {@code /my}, each with what is used and what remains. Today the lifetime
 * spend limit; L-1's per-key limits (requests and tokens per minute, concurrency, rolling spend windows) join
 * this list: one {@link Line} each, added in {@link #of} where marked.
 */
final class MyLimits {
    /** {@code nameKey}: the messages key of the limit's name; the figures are already in their units. */
    record Line(String nameKey, String limit, String used, String remaining) {
    }

    private MyLimits() {
    }

    /** @param spendLimitMicros the key's lifetime spend limit, null when it has none */
    static List<Line> of(Long spendLimitMicros, long spentMicros) {
        List<Line> lines = new ArrayList<>();
        if (spendLimitMicros != null) {
            lines.add(new Line("my.limits.spend", Money.format(spendLimitMicros), Money.format(spentMicros),
                    Money.format(Math.max(0, spendLimitMicros - spentMicros))));
        }
        // L-1 plugs in here: one Line per per-key limit set in the key's policy (rpm, tpm, concurrency, spend windows)
        return List.copyOf(lines);
    }
}
