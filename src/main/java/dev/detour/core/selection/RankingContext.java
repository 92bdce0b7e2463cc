package dev.detour.core.selection;

import dev.detour.core.keys.KeyPolicy;
import java.time.Instant;

/**
 * What a {@link Strategy} may look at besides the eligible routes: the request (key policy,
 * groups, settings, live ranking inputs, sticky binding), time and randomness.
 */
public record RankingContext(SelectionRequest request, Instant now, RandomSource random) {

    public KeyPolicy policy() {
        return request.keyPolicy();
    }

    public SelectionSettings settings() {
        return request.settings();
    }

    public RankingInputs inputs() {
        return request.inputs();
    }

    public RouteStats stats(Route route) {
        return request.inputs().statsOf(route);
    }

    public long groupRatioPpm(Route route) {
        return request.group(route.account().groupId()).ratioPpm();
    }

    /** The route's S-3 price point: S-7 cost tier, whether the model price is known, the effective price. */
    public PricePoint price(Route route) {
        return PricePoint.of(route, this);
    }
}
