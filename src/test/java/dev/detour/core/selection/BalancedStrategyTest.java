package dev.detour.core.selection;

import static dev.detour.core.selection.SelectionFixtures.MODEL;
import static dev.detour.core.selection.SelectionFixtures.NOW;
import static dev.detour.core.selection.SelectionFixtures.SOL;
import static dev.detour.core.selection.SelectionFixtures.groups;
import static dev.detour.core.selection.SelectionFixtures.ids;
import static dev.detour.core.selection.SelectionFixtures.plan;
import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.keys.BalancedWeights;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.keys.KeyStrategy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SPEC S-3 {@code balanced}: a public, integer score over stability / price / latency with per-key
 * weights (default 45/40/15). Route 1 is very stable (99 ok, 1 failed), dear (2.0x) and fast
 * (p95 200 ms); route 2 is shaky (5/5), cheap (0.5x) and slow (900 ms).
 */
class BalancedStrategyTest {
    static final List<Account> POOL = List.of(account(1).group(1).maps(MODEL, "up-1").build(),
            account(2).group(2).maps(MODEL, "up-2").build());
    static final RankingInputs INPUTS = RankingInputs.NONE.withRouteStats(Map.of(
            new ModelStateKey(1, "up-1"), new RouteStats(99, 1, 200L, 30),
            new ModelStateKey(2, "up-2"), new RouteStats(5, 5, 900L, 30)));

    static SelectionRequest request(BalancedWeights weights) {
        KeyPolicy policy = KeyPolicy.UNRESTRICTED.withStrategy(KeyStrategy.BALANCED).withBalancedWeights(weights);
        return SOL.withPolicy(policy).withGroups(groups(1, 2_000_000, 2, 500_000)).withInputs(INPUTS);
    }

    @ParameterizedTest(name = "weights {0}/{1}/{2} → route {3} first")
    @CsvSource({"45, 40, 15, 2", "80, 10, 10, 1", "0, 100, 0, 2", "0, 0, 100, 1", "100, 0, 0, 1", "34, 33, 33, 1",
        "20, 60, 20, 2"})
    void theKeysWeightsDecideWhichQualityWins(int stability, int price, int latency, long expectedFirst) {
        Plan plan = plan(request(new BalancedWeights(stability, price, latency)), POOL);

        assertEquals(expectedFirst, ids(plan).get(0));
        assertTrue(plan.candidates().stream().allMatch(c -> c.why() == ReasonCode.SELECTED_BALANCED));
    }

    @Test
    void theScoreIsTheWeightedSumOfNormalizedPartsInPpm() {
        RankingContext context = new RankingContext(request(BalancedWeights.DEFAULT), NOW, new SeededRandom(1));
        List<Route> routes = POOL.stream().map(a -> new Route(a, "up-" + a.id(), "up-" + a.id())).toList();

        Map<Long, Long> scores = BalancedStrategy.scores(routes, context);

        // route 1: (45 × 980392 + 40 × 0 + 15 × 1000000) / 100; route 2: (45 × 500000 + 40 × 1000000 + 15 × 0) / 100
        assertEquals(591_176L, scores.get(1L));
        assertEquals(625_000L, scores.get(2L));
    }

    @Test
    void withSomeModelPricesKnownARouteOfUnknownPriceScoresNothingOnPrice() {
        RankingInputs priced = INPUTS.withRouteStats(Map.of()).withPrices(Map.of("up-1", new ModelPrice(10, 10)));
        SelectionRequest request = request(new BalancedWeights(0, 100, 0)).withInputs(priced);

        assertEquals(List.of(1L, 2L), ids(plan(request, POOL)));
    }

    @Test
    void unsampledLatencyIsNeutralNotSlow() {
        List<Account> pool = List.of(account(1).maps(MODEL, "up-1").build(), account(2).maps(MODEL, "up-2").build(),
                account(3).maps(MODEL, "up-3").build());
        RankingInputs inputs = RankingInputs.NONE.withRouteStats(Map.of(
                new ModelStateKey(1, "up-1"), RouteStats.ttft(300, 40),
                new ModelStateKey(3, "up-3"), RouteStats.ttft(1200, 40)));
        SelectionRequest request = SOL.withInputs(inputs).withPolicy(KeyPolicy.UNRESTRICTED
                .withStrategy(KeyStrategy.BALANCED).withBalancedWeights(new BalancedWeights(0, 0, 100)));

        assertEquals(List.of(1L, 2L, 3L), ids(plan(request, pool)));
    }

    @Test
    void equalScoresFallBackToThePriceOrderThenId() {
        List<Account> pool = List.of(account(3).group(1).build(), account(2).group(2).build(),
                account(1).group(2).build());
        SelectionRequest request = SOL.withGroups(groups(1, 900_000, 2, 1_100_000))
                .withPolicy(KeyPolicy.UNRESTRICTED.withStrategy(KeyStrategy.BALANCED)
                        .withBalancedWeights(new BalancedWeights(100, 0, 0)));

        assertEquals(List.of(3L, 1L, 2L), ids(plan(request, pool)));
    }
}
