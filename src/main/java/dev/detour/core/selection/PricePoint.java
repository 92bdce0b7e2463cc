package dev.detour.core.selection;

import java.util.Comparator;

/**
 * Where a route stands under S-3 {@code price}: its S-7 cost tier first (measured free, unknown,
 * measured paid — a hard tiering), then routes of known model price before unknown ones, then
 * {@code value}: for a known price the effective price = blended base price (micros per M tokens)
 * × group ratio (ppm), i.e. micros per M tokens scaled by 10^6; for an unknown one the group ratio
 * (ppm) alone. Values are compared only between points of equal tier and knownness.
 */
public record PricePoint(CostTier tier, boolean known, long value) implements Comparable<PricePoint> {
    private static final Comparator<PricePoint> ORDER = Comparator.comparing(PricePoint::tier)
            .thenComparing(PricePoint::known, Comparator.reverseOrder())
            .thenComparingLong(PricePoint::value);

    public static PricePoint of(Route route, RankingContext context) {
        long ratio = context.groupRatioPpm(route);
        CostTier tier = CostEma.tierOf(context.inputs().costOf(route), context.now(),
                context.settings().costLedgerTtl());
        ModelPrice base = context.inputs().priceOf(route, context.request().requestedModel());
        return base == null
                ? new PricePoint(tier, false, ratio)
                : new PricePoint(tier, true, Ppm.times(base.blendedMicrosPerM(), ratio));
    }

    @Override
    public int compareTo(PricePoint other) {
        return ORDER.compare(this, other);
    }

    /**
     * S-8: this (the sticky route) costs at most {@code premiumPct} % more than {@code cheapest} —
     * only comparable in the same cost tier and knownness, so it never lifts a paid route over a
     * free one or an unknown price over a known one.
     */
    public boolean withinPremiumOf(PricePoint cheapest, int premiumPct) {
        if (tier != cheapest.tier || known != cheapest.known) {
            return false;
        }
        return Ppm.times(value, 100) <= Ppm.times(cheapest.value, 100L + premiumPct);
    }
}
