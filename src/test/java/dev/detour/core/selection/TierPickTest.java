package dev.detour.core.selection;

import static dev.detour.core.selection.SelectionFixtures.NOW;
import static dev.detour.core.selection.SelectionFixtures.SOL;
import static dev.detour.core.selection.SelectionFixtures.ids;
import static dev.detour.core.selection.SelectionFixtures.plan;
import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.detour.core.account.Account;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC S-4 (seed pool-mechanism): weight = quota ratio × 10 + idle bonus + success rate × 3, top-5, min pick gap. */
class TierPickTest {
    static final SelectionSettings SETTINGS = SelectionSettings.DEFAULTS;

    @ParameterizedTest(name = "idle {0} min → {1} ppm")
    @CsvSource(nullValues = "NEVER", value = {
        "NEVER, 5000000",
        "0, 0",
        "30, 250000",
        "60, 500000",
        "240, 2000000",
        "600, 5000000",
        "6000, 5000000",
        "-5, 0"})
    void theIdleBonusGrowsHalfAPointPerHourUpToFiveAndIsFullWhenNeverUsed(Integer minutesIdle, long expected) {
        Instant lastUse = minutesIdle == null ? null : NOW.minus(Duration.ofMinutes(minutesIdle));

        assertEquals(expected, TierPick.idleBonusPpm(lastUse, NOW, SETTINGS));
    }

    @Test
    void theIdleBonusParametersComeFromSettings() {
        SelectionSettings steep = SETTINGS.withIdleBonus(1_000_000, 2_000_000);

        assertEquals(1_000_000, TierPick.idleBonusPpm(NOW.minus(Duration.ofHours(1)), NOW, steep));
        assertEquals(2_000_000, TierPick.idleBonusPpm(NOW.minus(Duration.ofHours(3)), NOW, steep));
        assertEquals(2_000_000, TierPick.idleBonusPpm(null, NOW, steep));
    }

    @ParameterizedTest(name = "ok {0}, errors {1} → {2} ppm")
    @CsvSource({"0, 0, 1500000", "3, 1, 750000", "0, 4, 0", "10, 0, 1000000", "1, 2, 333333"})
    void theSuccessRateComesFromTheCountersAndIsOnePointFiveWithoutData(long ok, long errors, long expected) {
        assertEquals(expected, TierPick.successRatePpm(account(1).counts(ok, errors).build()));
    }

    @ParameterizedTest(name = "quota {0} (max {1}), weight {2} (max {3}) → {4} ppm")
    @CsvSource(nullValues = "NULL", value = {
        "50, 200, 1, 1, 250000",
        "200, 200, 1, 1, 1000000",
        "NULL, 0, 3, 6, 500000",
        "NULL, 0, 6, 6, 1000000",
        "NULL, 0, 0, 6, 0",
        "NULL, 0, -2, 6, 0",
        "NULL, 0, 0, 0, 0"})
    void theQuotaRatioIsQuotaOverTheTiersMaxOrTheNormalizedWeightWhenQuotaIsUnknown(Long quota, long maxQuota,
            int weight, long maxWeight, long expected) {
        Account a = account(1).quota(quota).weight(weight).build();

        assertEquals(expected, TierPick.quotaRatioPpm(a, maxQuota, maxWeight));
    }

    @Test
    void theThreeFactorsAddUpPerAccountOfTheTier() {
        List<Route> tier = routes(
                account(1).quota(100L).counts(9, 1).lastUsedAt(NOW.minus(Duration.ofHours(2))).build(),
                account(2).quota(50L).build(),
                account(3).weight(4).counts(0, 3).lastUsedAt(NOW).build(),
                account(4).weight(8).build());

        Map<Long, Long> weights = TierPick.weights(tier, context(SOL, 1));

        assertEquals(10_000_000 + 1_000_000 + 2_700_000, weights.get(1L));
        assertEquals(5_000_000 + 5_000_000 + 4_500_000, weights.get(2L));
        assertEquals(5_000_000 + 0 + 0, weights.get(3L));
        assertEquals(10_000_000 + 5_000_000 + 4_500_000, weights.get(4L));
    }

    @Test
    void firstPlaceIsProportionalToTheWeightOverManySeededDraws() {
        List<Account> tier = List.of(account(1).quota(100L).build(), account(2).quota(50L).build(),
                account(3).quota(25L).build());
        Map<Long, Integer> firsts = countFirsts(tier, 20_000);
        double total = 19.5 + 14.5 + 12.0;

        assertEquals(19.5 / total, firsts.get(1L) / 20_000.0, 0.02);
        assertEquals(14.5 / total, firsts.get(2L) / 20_000.0, 0.02);
        assertEquals(12.0 / total, firsts.get(3L) / 20_000.0, 0.02);
    }

    @Test
    void tenThousandSeededPicksWithKnownQuotasIdleTimesAndSuccessMatchTheFormulasSharesWithinTwoPoints() {
        List<Account> tier = List.of(
                account(1).quota(100L).counts(9, 1).lastUsedAt(NOW.minus(Duration.ofHours(2))).build(),
                account(2).quota(50L).build(),
                account(3).quota(25L).counts(1, 1).lastUsedAt(NOW.minus(Duration.ofHours(4))).build(),
                account(4).quota(10L).counts(0, 4).lastUsedAt(NOW.minus(Duration.ofMinutes(30))).build());
        // quota/100 × 10 + min(hours idle × 0.5, 5) (never used = 5) + ok/(ok+errors) × 3 (no data = 1.5)
        Map<Long, Double> formula = Map.of(1L, 10 + 1.0 + 2.7, 2L, 5 + 5.0 + 4.5, 3L, 2.5 + 2.0 + 1.5,
                4L, 1 + 0.25 + 0.0);
        double total = formula.values().stream().mapToDouble(Double::doubleValue).sum();
        Map<Long, Integer> firsts = countFirsts(tier, 10_000);

        // tolerance: 2 percentage points, over 4 standard deviations of a 10,000-draw share
        formula.forEach((id, weight) -> assertEquals(weight / total, firsts.getOrDefault(id, 0) / 10_000.0, 0.02,
                "account " + id));
    }

    @Test
    void onlyTheFiveHeaviestAreDrawnAndTheRestFollowByWeight() {
        List<Account> tier = new ArrayList<>();
        for (long id = 1; id <= 7; id++) {
            tier.add(account(id).quota(id * 100).build());
        }
        for (long seed = 0; seed < 300; seed++) {
            List<Long> order = ids(plan(SOL, seed, tier));

            assertEquals(Set.of(3L, 4L, 5L, 6L, 7L), new HashSet<>(order.subList(0, 5)), "seed " + seed);
            assertEquals(List.of(2L, 1L), order.subList(5, 7), "seed " + seed);
        }
    }

    @Test
    void equalWeightsAreShortlistedByAccountId() {
        List<Account> tier = new ArrayList<>();
        for (long id = 7; id >= 1; id--) {
            tier.add(account(id).build());
        }
        for (long seed = 0; seed < 100; seed++) {
            assertEquals(List.of(6L, 7L), ids(plan(SOL, seed, tier)).subList(5, 7));
        }
    }

    @Test
    void anAccountPickedWithinTheMinPickGapIsSkippedWhileOthersAreFresh() {
        List<Account> tier = List.of(account(1).build(), account(2).build(), account(3).build());
        SelectionRequest request = SOL.withInputs(RankingInputs.NONE.withLastPickedAt(
                Map.of(1L, NOW.minusMillis(50))));

        for (long seed = 0; seed < 200; seed++) {
            List<Long> order = ids(plan(request, seed, tier));
            assertNotEquals(1L, order.get(0), "seed " + seed);
            assertEquals(1L, order.get(2), "a just-picked account is tried last: seed " + seed);
        }
    }

    @Test
    void anAccountPickedLongerAgoThanTheGapCompetesAgain() {
        List<Account> tier = List.of(account(1).build(), account(2).build());
        SelectionRequest request = SOL.withInputs(RankingInputs.NONE.withLastPickedAt(
                Map.of(1L, NOW.minusMillis(100), 2L, NOW.minusMillis(100))));
        Set<Long> firsts = new HashSet<>();

        for (long seed = 0; seed < 50; seed++) {
            firsts.add(ids(plan(request, seed, tier)).get(0));
        }
        assertEquals(Set.of(1L, 2L), firsts);
    }

    @Test
    void whenTheWholeShortlistWasJustPickedTheLeastRecentlyUsedLeads() {
        List<Account> tier = List.of(account(1).build(), account(2).build(), account(3).build());
        SelectionRequest request = SOL.withInputs(RankingInputs.NONE.withLastPickedAt(Map.of(
                1L, NOW.minusMillis(10), 2L, NOW.minusMillis(90), 3L, NOW.minusMillis(50))));

        for (long seed = 0; seed < 50; seed++) {
            assertEquals(List.of(2L, 3L, 1L), ids(plan(request, seed, tier)), "seed " + seed);
        }
    }

    @Test
    void theStoredLastUseCountsForTheGapLikeTheGatewaysLastPick() {
        List<Account> tier = List.of(account(1).lastUsedAt(NOW.minusMillis(20)).build(),
                account(2).lastUsedAt(NOW.minusMillis(70)).build());

        assertEquals(List.of(2L, 1L), ids(plan(SOL, 3, tier)));
    }

    @Test
    void theGapFollowsTheSetting() {
        List<Account> tier = List.of(account(1).build(), account(2).build());
        SelectionRequest request = SOL.withSettings(SETTINGS.withMinPickGap(Duration.ofSeconds(5)))
                .withInputs(RankingInputs.NONE.withLastPickedAt(Map.of(1L, NOW.minusSeconds(2))));

        for (long seed = 0; seed < 50; seed++) {
            assertEquals(2L, ids(plan(request, seed, tier)).get(0));
        }
    }

    @Test
    void inLargeTiersFullOfTiesTheShortlistIsTheFiveHeaviestAndTheRestFollowsByWeightThenId() {
        java.util.Random random = new java.util.Random(7);
        for (int round = 0; round < 200; round++) {
            int size = 1 + random.nextInt(60);
            List<Account> tier = new ArrayList<>();
            Map<Long, Long> quota = new HashMap<>();
            for (long id = 1; id <= size; id++) {
                long q = 100L * (1 + random.nextInt(3)); // three values: most comparisons are ties
                quota.put(id, q);
                tier.add(account(id).quota(q).build());
            }
            java.util.Collections.shuffle(tier, random); // the pool order must not matter
            List<Long> expected = new ArrayList<>(quota.keySet());
            expected.sort(java.util.Comparator.<Long>comparingLong(quota::get).reversed()
                    .thenComparingLong(Long::longValue));
            List<Long> order = ids(plan(SOL, round, tier));

            int shortlist = Math.min(5, size);
            assertEquals(new HashSet<>(expected.subList(0, shortlist)), new HashSet<>(order.subList(0, shortlist)),
                    "round " + round);
            assertEquals(expected.subList(shortlist, size), order.subList(shortlist, size), "round " + round);
        }
    }

    @Test
    void theSameSeedGivesTheSameOrderWhateverThePoolOrder() {
        Account a = account(1).quota(30L).build();
        Account b = account(2).quota(70L).counts(5, 5).build();
        Account c = account(3).quota(10L).build();
        Account d = account(4).quota(55L).lastUsedAt(NOW.minus(Duration.ofHours(1))).build();

        List<Long> first = ids(plan(SOL, 123, List.of(a, b, c, d)));

        assertEquals(first, ids(plan(SOL, 123, List.of(d, c, b, a))));
        assertEquals(first, ids(plan(SOL, 123, List.of(b, d, a, c))));
    }

    @Test
    void everyTierMemberIsPlannedOnceEvenWithRecentPicksAndABigTier() {
        List<Account> tier = new ArrayList<>();
        Map<Long, Instant> picked = new HashMap<>();
        for (long id = 1; id <= 9; id++) {
            tier.add(account(id).quota(id).build());
            if (id % 2 == 0) {
                picked.put(id, NOW.minusMillis(id));
            }
        }
        List<Long> order = ids(plan(SOL.withInputs(RankingInputs.NONE.withLastPickedAt(picked)), 9, tier));

        // weights: 9 → 19.5, 7 → 17.3, 5 → 15.1, 8 → 13.4 (just picked), 3 → 12.8 | 6, 1, 4, 2
        assertEquals(Set.of(9L, 7L, 5L, 3L), new HashSet<>(order.subList(0, 4)), "fresh shortlist first: " + order);
        assertEquals(8L, order.get(4), "the just-picked shortlist member next");
        assertEquals(List.of(6L, 1L, 4L, 2L), order.subList(5, 9), "then the rest of the tier by weight");
    }

    private static Map<Long, Integer> countFirsts(List<Account> tier, int draws) {
        Map<Long, Integer> firsts = new HashMap<>();
        SelectionPipeline pipeline = new SelectionPipeline();
        SeededRandom random = new SeededRandom(2026);
        for (int i = 0; i < draws; i++) {
            Plan plan = pipeline.plan(SOL, tier, Map.of(), NOW, random);
            firsts.merge(plan.candidates().get(0).accountId(), 1, Integer::sum);
        }
        return firsts;
    }

    private static List<Route> routes(Account... accounts) {
        return java.util.Arrays.stream(accounts).map(a -> new Route(a, "m", "m")).toList();
    }

    private static RankingContext context(SelectionRequest request, long seed) {
        return new RankingContext(request, NOW, new SeededRandom(seed));
    }
}
