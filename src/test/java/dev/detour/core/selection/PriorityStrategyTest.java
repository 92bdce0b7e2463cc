package dev.detour.core.selection;

import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC S-3 {@code priority}: tiers ascending, a seeded weighted order within a tier. */
class PriorityStrategyTest {
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final SelectionRequest SOL = SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, "gpt-5.6-sol");

    static Plan plan(long seed, Account... accounts) {
        return new SelectionPipeline().plan(SOL, List.of(accounts), Map.of(), NOW, new SeededRandom(seed));
    }

    static List<Long> ids(Plan plan) {
        return plan.candidates().stream().map(Candidate::accountId).toList();
    }

    @Test
    void lowerPriorityNumbersComeFirstAndASingleAccountTierIsSelectedByPriority() {
        Plan plan = plan(1, account(1).priority(2).build(), account(2).priority(0).build(),
                account(3).priority(1).build());

        assertEquals(List.of(2L, 3L, 1L), ids(plan));
        assertEquals(ReasonCode.SELECTED_PRIORITY, plan.reason());
        assertTrue(plan.candidates().stream().allMatch(c -> c.why() == ReasonCode.SELECTED_PRIORITY));
    }

    @Test
    void aTierOfSeveralAccountsIsAWeightedPickAndLaterTiersFollowIt() {
        Plan plan = plan(3, account(1).priority(0).build(), account(2).priority(0).build(),
                account(3).priority(5).build());

        assertEquals(ReasonCode.SELECTED_WEIGHTED, plan.reason());
        assertEquals(Set.of(1L, 2L), new HashSet<>(ids(plan).subList(0, 2)));
        assertEquals(3L, ids(plan).get(2));
        assertEquals(ReasonCode.SELECTED_PRIORITY, plan.candidates().get(2).why());
    }

    @Test
    void theSameSeedGivesTheSameOrderWhateverThePoolOrder() {
        Account a = account(1).weight(3).build();
        Account b = account(2).weight(5).build();
        Account c = account(3).weight(1).build();

        List<Long> first = ids(plan(99, a, b, c));

        assertEquals(first, ids(plan(99, a, b, c)));
        assertEquals(first, ids(plan(99, c, a, b)));
    }

    @Test
    void differentSeedsProduceDifferentOrders() {
        Account[] tier = {account(1).build(), account(2).build(), account(3).build(), account(4).build()};
        Set<List<Long>> orders = new HashSet<>();
        for (long seed = 0; seed < 50; seed++) {
            orders.add(ids(plan(seed, tier)));
        }
        assertTrue(orders.size() > 5, "orders seen: " + orders.size());
    }

    @ParameterizedTest(name = "weights {0}:{1}:{2}")
    @CsvSource({"1,1,2", "1,3,6", "10,0,10", "5,5,0"})
    void firstPlaceFollowsTheS4WeightOfTheConfiguredWeightsOverManySeededDraws(int w1, int w2, int w3) {
        Account[] tier = {account(1).weight(w1).build(), account(2).weight(w2).build(), account(3).weight(w3).build()};
        int draws = 20_000;
        Map<Long, Integer> firsts = new HashMap<>();
        SelectionPipeline pipeline = new SelectionPipeline();
        SeededRandom random = new SeededRandom(2026);
        for (int i = 0; i < draws; i++) {
            Plan plan = pipeline.plan(SOL, List.of(tier), Map.of(), NOW, random);
            firsts.merge(plan.candidates().get(0).accountId(), 1, Integer::sum);
        }
        // S-4 with unknown quota, never used, no counters: weight / max weight × 10 + 5 (idle) + 1.5 × 3
        int[] weights = {w1, w2, w3};
        int max = Math.max(w1, Math.max(w2, w3));
        double[] s4 = new double[3];
        double total = 0;
        for (int i = 0; i < 3; i++) {
            s4[i] = Math.max(0, weights[i]) * 10.0 / max + 5 + 4.5;
            total += s4[i];
        }
        for (int i = 0; i < 3; i++) {
            double seen = firsts.getOrDefault((long) i + 1, 0) / (double) draws;
            assertEquals(s4[i] / total, seen, 0.02, "account " + (i + 1));
        }
    }

    @Test
    void aZeroOrNegativeWeightStillGetsPicked() {
        Account zero = account(1).weight(0).build();
        Account negative = account(2).weight(-4).build();
        Set<Long> firsts = new HashSet<>();
        for (long seed = 0; seed < 40; seed++) {
            firsts.add(plan(seed, zero, negative).candidates().get(0).accountId());
        }
        assertEquals(Set.of(1L, 2L), firsts);
    }

    @Test
    void everyEligibleAccountAppearsExactlyOnceInThePlan() {
        Account[] pool = {account(1).priority(1).weight(7).build(), account(2).priority(1).weight(2).build(),
                account(3).priority(0).build(), account(4).priority(1).build()};

        List<Long> order = ids(plan(5, pool));

        assertEquals(4, order.size());
        assertEquals(Set.of(1L, 2L, 3L, 4L), new HashSet<>(order));
        assertEquals(3L, order.get(0));
        assertNotEquals(3L, order.get(1));
    }

    @Test
    void weightedOrderIsAPermutationProportionalToWeight() {
        List<String> items = List.of("a", "b");
        int aFirst = 0;
        SeededRandom random = new SeededRandom(11);
        for (int i = 0; i < 10_000; i++) {
            List<String> order = WeightedOrder.order(items, s -> s.equals("a") ? 9 : 1, random);
            assertEquals(Set.of("a", "b"), new HashSet<>(order));
            aFirst += order.get(0).equals("a") ? 1 : 0;
        }
        assertEquals(0.9, aFirst / 10_000.0, 0.02);
    }
}
