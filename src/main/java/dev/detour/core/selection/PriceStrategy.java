package dev.detour.core.selection;

import java.util.List;

/**
 * S-3 {@code price}: effective price ascending — S-7 measured-free before unknown before
 * measured-paid, known model price before unknown, then group ratio × base price — ties by
 * priority, then account id. Success history is no gate here (seed smart-router §8.1).
 */
public final class PriceStrategy implements Strategy {
    public static final PriceStrategy INSTANCE = new PriceStrategy();

    @Override
    public List<Candidate> rank(List<Route> eligible, RankingContext context) {
        return RouteOrder.label(RouteOrder.sorted(eligible, RouteOrder.byPrice(context)),
                ReasonCode.SELECTED_LOWEST_PRICE);
    }
}
