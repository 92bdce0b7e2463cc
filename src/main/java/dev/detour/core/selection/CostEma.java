package dev.detour.core.selection;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * S-7 cost ledger entry for one (account, model): the EMA (α = 0.3) of the cost an upstream
 * reported, in micros per thousand tokens, and when it was last updated. It is valid for
 * {@link #DEFAULT_TTL} (6 h, seed pool-mechanism): an older entry counts as no observation, so
 * yesterday's price never decides today's pick. The ledger is in-memory only (seed).
 */
public record CostEma(long microsPerKTokens, Instant updatedAt) {
    public static final Duration DEFAULT_TTL = Duration.ofHours(6);

    public CostEma {
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (microsPerKTokens < 0) {
            throw new IllegalArgumentException("a cost cannot be negative");
        }
    }

    /**
     * The ledger after one more observation: {@code 0.3 × observed + 0.7 × previous}, floored so a
     * run of free observations reaches exactly 0 (free); a missing or expired previous entry restarts
     * from the observation.
     */
    public static CostEma observe(CostEma previous, long observedMicrosPerKTokens, Instant now, Duration ttl) {
        long observed = Math.max(0, observedMicrosPerKTokens);
        if (previous == null || !previous.freshAt(now, ttl)) {
            return new CostEma(observed, now);
        }
        long weighted = Ppm.times(3, observed) + Ppm.times(7, previous.microsPerKTokens);
        return new CostEma(weighted < 0 ? Long.MAX_VALUE / 10 : weighted / 10, now);
    }

    /** Micros per thousand tokens from a usage report: {@code cost × 1000 / tokens} (0 tokens → 0). */
    public static long perKTokens(long costMicros, long tokens) {
        return tokens <= 0 ? 0 : Ppm.times(Math.max(0, costMicros), 1000) / tokens;
    }

    public boolean freshAt(Instant now, Duration ttl) {
        return now.isBefore(updatedAt.plus(ttl));
    }

    /** The S-7 tier of a route given its ledger entry (null = never observed). */
    public static CostTier tierOf(CostEma entry, Instant now, Duration ttl) {
        if (entry == null || !entry.freshAt(now, ttl)) {
            return CostTier.UNKNOWN;
        }
        return entry.microsPerKTokens == 0 ? CostTier.MEASURED_FREE : CostTier.MEASURED_PAID;
    }
}
