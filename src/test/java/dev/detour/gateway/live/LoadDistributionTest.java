package dev.detour.gateway.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.selection.CostEma;
import dev.detour.core.selection.ModelStateKey;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** S-5 instance share, S-4 pick times and S-7 cost ledger as selection receives them. */
class LoadDistributionTest {
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    @ParameterizedTest(name = "max {0} over {1} instances → {2} each")
    @CsvSource({"3, 1, 3", "3, 2, 2", "3, 3, 1", "3, 5, 1", "10, 3, 4", "0, 4, 0"})
    void eachInstanceEnforcesItsShareOfMaxInFlight(int max, int instances, int share) {
        LoadDistribution load = new LoadDistribution(null, null);
        load.useInstances(instances);
        assertEquals(share, load.capacityShare(max));
    }

    @Test
    void picksAndObservedCostsReachTheRankingInputs() {
        LoadDistribution load = new LoadDistribution(null, null);
        load.picked(7, T0);
        load.observeCost(7, "upstream-sol", 120, 1000, T0); // 0.00012 per 1000 tokens
        load.observeCost(7, "upstream-sol", 0, 1000, T0.plusSeconds(1));
        var inputs = load.rankingInputs();
        assertEquals(T0, inputs.lastPickedAt(7));
        CostEma ema = inputs.costLedger().get(new ModelStateKey(7, "upstream-sol"));
        assertEquals(CostEma.observe(CostEma.observe(null, 120, T0, CostEma.DEFAULT_TTL), 0, T0.plusSeconds(1),
                CostEma.DEFAULT_TTL), ema, "EMA with α = 0.3");
    }
}
