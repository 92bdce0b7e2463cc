package dev.detour.adapter.web;

import dev.detour.core.keys.LimitCheck;
import dev.detour.core.keys.LimitKind;
import java.util.ArrayList;
import java.util.List;

/**
 * U-9: the limits a key holder sees on {@code /my}, each with what is used and what remains: the lifetime spend
 * limit, then L-1's per-key limits (requests and tokens per minute, concurrency, rolling spend windows) as this
 * instance counts them (L-4: other instances' use is included up to the last one-second sync).
 */
final class MyLimits {
    /** {@code nameKey}: the messages key of the limit's name; the figures are already in their units. */
    record Line(String nameKey, String limit, String used, String remaining) {
    }

    private MyLimits() {
    }

    /**
     * @param spendLimitMicros the key's lifetime spend limit, null when it has none
     * @param headroom         L-1's limits the key's policy sets, as the key limiter counts them now
     */
    static List<Line> of(Long spendLimitMicros, long spentMicros, List<LimitCheck.Headroom> headroom) {
        List<Line> lines = new ArrayList<>();
        if (spendLimitMicros != null) {
            lines.add(new Line("my.limits.spend", Money.format(spendLimitMicros), Money.format(spentMicros),
                    Money.format(Math.max(0, spendLimitMicros - spentMicros))));
        }
        for (LimitCheck.Headroom h : headroom) {
            boolean money = h.kind().code().equals(LimitKind.SPEND_DAY.code());
            lines.add(new Line("my.limits." + h.kind().suffix(), figure(h.limit(), money), figure(h.used(), money),
                    figure(h.remaining(), money)));
        }
        return List.copyOf(lines);
    }

    private static String figure(long value, boolean micros) {
        return micros ? Money.format(value) : String.format(java.util.Locale.ROOT, "%,d", value);
    }
}
