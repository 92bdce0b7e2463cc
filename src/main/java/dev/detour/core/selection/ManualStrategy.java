package dev.detour.core.selection;

import java.util.Comparator;
import java.util.List;

/**
 * S-3 {@code manual}: the key's own group order; groups it does not list follow the listed ones;
 * within a group by priority, then account id. Hard filters and health still apply before this
 * (seed smart-router §8.5: manual order never forces a failing or blocked route).
 */
public final class ManualStrategy implements Strategy {
    public static final ManualStrategy INSTANCE = new ManualStrategy();

    @Override
    public List<Candidate> rank(List<Route> eligible, RankingContext context) {
        List<Long> order = context.policy().manualGroupOrder();
        Comparator<Route> byGroup = Comparator.comparingInt((Route r) -> {
            int index = order.indexOf(r.account().groupId());
            return index < 0 ? Integer.MAX_VALUE : index;
        });
        return RouteOrder.label(RouteOrder.sorted(eligible, byGroup.thenComparing(RouteOrder.byPriorityThenId())),
                ReasonCode.SELECTED_MANUAL_ORDER);
    }
}
