package dev.detour.core.selection;

import static dev.detour.core.selection.SelectionFixtures.MODEL;
import static dev.detour.core.selection.SelectionFixtures.NOW;
import static dev.detour.core.selection.SelectionFixtures.SOL;
import static dev.detour.core.selection.SelectionFixtures.groups;
import static dev.detour.core.selection.SelectionFixtures.ids;
import static dev.detour.core.selection.SelectionFixtures.plan;
import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.account.Account;
import dev.detour.core.keys.GroupScope;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.keys.KeyStrategy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** SPEC S-6 (pure part) and S-8: the session's bound account first, under price/balanced only within the premium. */
class SessionAffinityTest {

    static SelectionRequest bound(KeyStrategy strategy, long stickyId) {
        return SOL.withPolicy(KeyPolicy.UNRESTRICTED.withStrategy(strategy)).withStickyAccount(stickyId);
    }

    @Test
    void underPriorityTheBoundAccountLeadsEvenFromALowerTier() {
        List<Account> pool = List.of(account(1).build(), account(2).priority(1).build(), account(3).priority(2).build());

        Plan plan = plan(bound(KeyStrategy.PRIORITY, 3), pool);

        assertEquals(List.of(3L, 1L, 2L), ids(plan));
        assertEquals(ReasonCode.KEPT_SESSION_AFFINITY, plan.reason());
        assertEquals(ReasonCode.SELECTED_PRIORITY, plan.candidates().get(1).why());
    }

    @Test
    void aBoundAccountThatIsCoolingIsIgnoredAndSelectionFallsThrough() {
        List<Account> pool = List.of(account(1).build(), account(2).coolingUntil(NOW.plusSeconds(30)).build());

        Plan plan = plan(bound(KeyStrategy.PRIORITY, 2), pool);

        assertEquals(List.of(1L), ids(plan));
        assertEquals(ReasonCode.SELECTED_PRIORITY, plan.reason());
    }

    @Test
    void aBoundAccountOutsideTheKeysScopeOrGoneFromThePoolIsIgnored() {
        List<Account> pool = List.of(account(1).build(), account(2).group(2).build());
        SelectionRequest outOfScope = bound(KeyStrategy.PRIORITY, 2)
                .withPolicy(KeyPolicy.UNRESTRICTED.withGroups(GroupScope.only(1L)));

        assertEquals(List.of(1L), ids(plan(outOfScope, pool)));
        assertEquals(ReasonCode.SELECTED_WEIGHTED, plan(bound(KeyStrategy.PRIORITY, 99), pool).reason());
    }

    @Test
    void aBoundAccountThatIsTheOnlyCoolingOneIsStillTheProbeFallbackNotAnAffinityKeep() {
        List<Account> pool = List.of(account(1).coolingUntil(NOW.plusSeconds(5)).build());

        assertEquals(ReasonCode.PROBE_FALLBACK_SOONEST_RECOVERY, plan(bound(KeyStrategy.PRIORITY, 1), pool).reason());
    }

    @ParameterizedTest(name = "{0}: premium {1} %, bound at {2} ppm vs cheapest 1.0x → kept {3}")
    @CsvSource({
        "PRICE, 10, 1100000, true",
        "PRICE, 10, 1100001, false",
        "PRICE, 0, 1000000, true",
        "PRICE, 0, 1000001, false",
        "PRICE, 50, 1400000, true",
        "PRICE, 100, 2000000, true",
        "PRICE, 100, 2000001, false",
        "BALANCED, 10, 1050000, true",
        "BALANCED, 10, 1200000, false"})
    void underPriceAndBalancedTheBoundAccountIsKeptOnlyWithinTheAffinityPremium(KeyStrategy strategy, int pct,
            long boundRatio, boolean kept) {
        List<Account> pool = List.of(account(1).group(1).build(), account(2).group(2).build());
        SelectionRequest request = SOL.withGroups(groups(1, 1_000_000, 2, boundRatio)).withStickyAccount(2L)
                .withPolicy(KeyPolicy.UNRESTRICTED.withStrategy(strategy).withAffinityPremiumPct(pct));

        Plan plan = plan(request, pool);

        assertEquals(kept ? 2L : 1L, ids(plan).get(0));
        ReasonCode normal = strategy == KeyStrategy.PRICE ? ReasonCode.SELECTED_LOWEST_PRICE : ReasonCode.SELECTED_BALANCED;
        assertEquals(kept ? ReasonCode.KEPT_CACHE_AFFINITY : normal, plan.reason());
    }

    @Test
    void theBoundAccountIsComparedWithKnownModelPricesWhenThereAreSome() {
        List<Account> pool = List.of(account(1).maps(MODEL, "up-1").build(), account(2).maps(MODEL, "up-2").build());
        RankingInputs inputs = RankingInputs.NONE.withPrices(Map.of("up-1", new ModelPrice(100, 0),
                "up-2", new ModelPrice(109, 0)));
        SelectionRequest request = bound(KeyStrategy.PRICE, 2).withInputs(inputs);

        assertEquals(ReasonCode.KEPT_CACHE_AFFINITY, plan(request, pool).reason());
        assertEquals(ReasonCode.SELECTED_LOWEST_PRICE, plan(request.withInputs(inputs.withPrices(Map.of(
                "up-1", new ModelPrice(100, 0), "up-2", new ModelPrice(111, 0)))), pool).reason());
    }

    @Test
    void aMeasuredPaidBoundAccountIsNotKeptOverAMeasuredFreeOneWhateverThePremium() {
        List<Account> pool = List.of(account(1).maps(MODEL, "up-1").build(), account(2).maps(MODEL, "up-2").build());
        RankingInputs ledger = RankingInputs.NONE.withCostLedger(Map.of(
                new ModelStateKey(1, "up-1"), new CostEma(0, NOW.minus(Duration.ofMinutes(5))),
                new ModelStateKey(2, "up-2"), new CostEma(3, NOW.minus(Duration.ofMinutes(5)))));
        SelectionRequest request = bound(KeyStrategy.PRICE, 2).withInputs(ledger)
                .withPolicy(KeyPolicy.UNRESTRICTED.withStrategy(KeyStrategy.PRICE).withAffinityPremiumPct(100));

        Plan plan = plan(request, pool);

        assertEquals(List.of(1L, 2L), ids(plan));
        assertEquals(ReasonCode.SELECTED_LOWEST_PRICE, plan.reason());
    }

    @ParameterizedTest(name = "{0} ignores the binding")
    @EnumSource(value = KeyStrategy.class, names = {"STABILITY", "LATENCY", "MANUAL"})
    void otherStrategiesRankAsUsual(KeyStrategy strategy) {
        List<Account> pool = List.of(account(1).build(), account(2).build());

        Plan plan = plan(bound(strategy, 2), pool);

        assertEquals(1L, ids(plan).get(0));
    }
}
