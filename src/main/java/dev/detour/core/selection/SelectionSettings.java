package dev.detour.core.selection;

import java.time.Duration;

/**
 * Site settings selection reads (SPEC GET/PUT /admin/api/settings), fixed-point:
 * <ul>
 * <li>{@code defaultMaxRatioPpm}: the ratio ceiling of a key whose own is 0 (0 = none);
 * {@code absoluteMaxRatioPpm}: a ceiling no key can lift (0 = none) — S-1 step 1;</li>
 * <li>{@code minPickGap} (100 ms), {@code idleBonusPerHourPpm} (0.5) and {@code idleBonusMaxPpm}
 * (5.0) — S-4;</li>
 * <li>{@code latencyMinSamples} (20): a p95 TTFT on fewer samples is unknown;
 * {@code latencyExplorePermille} (100): how often an unsampled route takes first place under
 * {@code latency} while sampled ones exist — S-3 "unknown is explored, never starved";</li>
 * <li>{@code costLedgerTtl} (6 h) — S-7.</li>
 * </ul>
 */
public record SelectionSettings(
        long defaultMaxRatioPpm,
        long absoluteMaxRatioPpm,
        Duration minPickGap,
        long idleBonusPerHourPpm,
        long idleBonusMaxPpm,
        int latencyMinSamples,
        int latencyExplorePermille,
        Duration costLedgerTtl) {

    public static final SelectionSettings DEFAULTS = new SelectionSettings(0, 0, Duration.ofMillis(100), 500_000,
            5_000_000, 20, 100, CostEma.DEFAULT_TTL);

    public SelectionSettings {
        minPickGap = minPickGap == null ? Duration.ofMillis(100) : minPickGap;
        costLedgerTtl = costLedgerTtl == null ? CostEma.DEFAULT_TTL : costLedgerTtl;
        if (defaultMaxRatioPpm < 0 || absoluteMaxRatioPpm < 0 || idleBonusPerHourPpm < 0 || idleBonusMaxPpm < 0
                || latencyMinSamples < 0 || latencyExplorePermille < 0 || latencyExplorePermille > 1000) {
            throw new IllegalArgumentException("selection settings out of range");
        }
    }

    public SelectionSettings withRatioCeilings(long defaultPpm, long absolutePpm) {
        return new SelectionSettings(defaultPpm, absolutePpm, minPickGap, idleBonusPerHourPpm, idleBonusMaxPpm,
                latencyMinSamples, latencyExplorePermille, costLedgerTtl);
    }

    public SelectionSettings withMinPickGap(Duration gap) {
        return new SelectionSettings(defaultMaxRatioPpm, absoluteMaxRatioPpm, gap, idleBonusPerHourPpm,
                idleBonusMaxPpm, latencyMinSamples, latencyExplorePermille, costLedgerTtl);
    }

    public SelectionSettings withIdleBonus(long perHourPpm, long maxPpm) {
        return new SelectionSettings(defaultMaxRatioPpm, absoluteMaxRatioPpm, minPickGap, perHourPpm, maxPpm,
                latencyMinSamples, latencyExplorePermille, costLedgerTtl);
    }

    public SelectionSettings withLatency(int minSamples, int explorePermille) {
        return new SelectionSettings(defaultMaxRatioPpm, absoluteMaxRatioPpm, minPickGap, idleBonusPerHourPpm,
                idleBonusMaxPpm, minSamples, explorePermille, costLedgerTtl);
    }

    /**
     * S-1 step 1: the ceiling a key with {@code keyMaxRatioPpm} gets — its own, or the site default
     * when 0 — never above the absolute maximum. 0 means no ceiling at all.
     */
    public long ratioCeilingPpm(long keyMaxRatioPpm) {
        long ceiling = keyMaxRatioPpm > 0 ? keyMaxRatioPpm : defaultMaxRatioPpm;
        if (absoluteMaxRatioPpm > 0) {
            ceiling = ceiling == 0 ? absoluteMaxRatioPpm : Math.min(ceiling, absoluteMaxRatioPpm);
        }
        return ceiling;
    }
}
