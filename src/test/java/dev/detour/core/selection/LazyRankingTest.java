package dev.detour.core.selection;

import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.Platform;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * N-10: a {@code priority} plan ranks the first tier's shortlist when it is made and the failover tail only
 * when it is read — and reading it gives exactly the order and draws of ranking the whole pool at once
 * ({@link PriorityStrategy#rank} with B-1's native-first and S-6's affinity), whatever the pool.
 */
class LazyRankingTest {
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final String MODEL = "claude-x";
    /** The whole ranking at once: the strategy's eager {@code rank} behind the default (native-first) plan order. */
    static final SelectionPipeline EAGER = new SelectionPipeline(k -> PriorityStrategy.INSTANCE::rank);
    static final SelectionPipeline LAZY = new SelectionPipeline();

    static List<Account> pool(int size, int tiers, boolean mixed) {
        List<Account> accounts = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            var a = account(i).serves(MODEL).priority(i % tiers).weight(1 + i % 5);
            if (mixed && i % 7 == 0) {
                a = a.platform(Platform.ANTHROPIC); // native for Messages; the others bridged
            }
            if (i % 4 == 0) {
                a = a.counts(90 + i % 10, i % 10); // S-4's success rate differs
            }
            if (i % 9 == 0) {
                a = a.lastUsedAt(NOW.minusSeconds(i)); // some were used recently: idle bonus, min pick gap
            }
            accounts.add(a.build());
        }
        return accounts;
    }

    static List<Long> ids(List<Candidate> candidates) {
        return candidates.stream().map(Candidate::accountId).toList();
    }

    @Test
    void aPlanOfTwoHundredRoutesRanksOnlyTheFirstTiersShortlistUntilTheTailIsRead() {
        Plan plan = LAZY.plan(SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, MODEL), pool(200, 3, false),
                Map.of(), NOW, new SeededRandom(7));

        LazyRanking ranking = assertInstanceOf(LazyRanking.class, plan.candidates());
        assertEquals(200, plan.candidates().size());
        assertEquals(TierPick.SHORTLIST, ranking.rankedSoFar());
        assertTrue(plan.hasCandidate(200) && !plan.hasCandidate(201));
        assertEquals(TierPick.SHORTLIST, ranking.rankedSoFar(), "asking whether an account is planned ranks nothing");

        plan.candidates().get(TierPick.SHORTLIST); // the loop passes the shortlist: the first tier's tail
        assertEquals(66, ranking.rankedSoFar()); // ids 3, 6, … 198: priority 0
        assertEquals(200, ids(plan.candidates()).size());
        assertEquals(200, ranking.rankedSoFar());
    }

    @Test
    void readingALazyPlanGivesTheSameOrderAndDrawsAsRankingTheWholePool() {
        for (EndpointFamily family : List.of(EndpointFamily.CHAT_COMPLETIONS, EndpointFamily.MESSAGES)) {
            for (int size : new int[] {1, 3, 5, 6, 12, 40, 201}) {
                for (int tiers : new int[] {1, 2, 3}) {
                    for (long seed = 0; seed < 12; seed++) {
                        List<Account> pool = pool(size, tiers, family == EndpointFamily.MESSAGES);
                        SelectionRequest request = SelectionRequest.of(family, MODEL);
                        String what = family + " size " + size + " tiers " + tiers + " seed " + seed;
                        assertSameOrder(request, pool, seed, what);
                        // S-6: the bound account lifted to the front, wherever it was ranked
                        long sticky = 1 + seed * 17 % size;
                        assertSameOrder(request.withStickyAccount(sticky), pool, seed, what + " sticky " + sticky);
                    }
                }
            }
        }
    }

    @Test
    void planningAgainWithTheSameRandomDrawsAsBeforeWhenTheFirstTierIsAShortlist() {
        // the first piece is ranked when the plan is made, so a second plan's draws follow the first's as they did
        List<Account> pool = pool(30, 1, false);
        SelectionRequest request = SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, MODEL);
        SeededRandom lazyRandom = new SeededRandom(5);
        SeededRandom eagerRandom = new SeededRandom(5);
        Plan lazyFirst = LAZY.plan(request, pool, Map.of(), NOW, lazyRandom);
        Plan lazySecond = LAZY.plan(request, pool, Map.of(), NOW, lazyRandom);
        Plan eagerFirst = EAGER.plan(request, pool, Map.of(), NOW, eagerRandom);
        Plan eagerSecond = EAGER.plan(request, pool, Map.of(), NOW, eagerRandom);

        assertEquals(ids(eagerSecond.candidates()), ids(lazySecond.candidates()));
        assertEquals(ids(eagerFirst.candidates()), ids(lazyFirst.candidates()));
    }

    @Test
    void aPlanLimitedToTheKeysMaxAttemptsRanksNoMoreThanItKeeps() {
        Plan plan = LAZY.plan(SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, MODEL), pool(100, 1, false),
                Map.of(), NOW, new SeededRandom(3));
        LazyRanking ranking = (LazyRanking) plan.candidates();

        Plan limited = plan.limitedTo(2);

        assertEquals(2, limited.candidates().size());
        assertEquals(TierPick.SHORTLIST, ranking.rankedSoFar());
        assertFalse(limited.hasCandidate(ids(plan.candidates()).get(2)));
    }

    private static void assertSameOrder(SelectionRequest request, List<Account> pool, long seed, String what) {
        Plan eager = EAGER.plan(request, pool, Map.of(), NOW, new SeededRandom(seed));
        Plan lazy = LAZY.plan(request, pool, Map.of(), NOW, new SeededRandom(seed));
        assertEquals(eager.reason(), lazy.reason(), what);
        assertEquals(eager.candidates(), lazy.candidates(), what); // accounts, models and reasons, in order
        Map<Integer, Candidate> byIndex = new HashMap<>(); // read backwards too: each place is where it belongs
        Plan again = LAZY.plan(request, pool, Map.of(), NOW, new SeededRandom(seed));
        for (int i = again.candidates().size() - 1; i >= 0; i--) {
            byIndex.put(i, again.candidates().get(i));
        }
        for (int i = 0; i < eager.candidates().size(); i++) {
            assertEquals(eager.candidates().get(i), byIndex.get(i), what + " place " + i);
        }
    }
}
