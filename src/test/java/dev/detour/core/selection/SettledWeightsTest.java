package dev.detour.core.selection;

import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.testkit.AccountMother;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * N-10: ranking reads each route from the pool's primitive columns ({@link RankFacts}, {@link ServedRoutes}), with
 * the S-4 weight but for the idle bonus kept per tier when the request's tier has the kept largest quota and weight.
 * Guard: on random pools (quotas known and unknown, counters, stored last uses, live picks, cooling accounts that
 * change a tier's largest quota) every weight equals S-4's rule worked out from the accounts themselves, and a
 * plan's whole order equals each tier ranked from plain routes (columns worked out afresh, nothing kept) with the
 * same draws.
 */
class SettledWeightsTest {
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00.123456789Z");
    private static final String MODEL = "gpt-5.6-sol";
    private static final SelectionSettings SETTINGS = SelectionSettings.DEFAULTS.withIdleBonus(400_000, 1_000_000);

    @Test
    void everyWeightIsTheRuleWorkedOutFromTheAccounts() {
        Random random = new Random(7);
        for (int round = 0; round < 300; round++) {
            List<Account> accounts = pool(random, 1 + random.nextInt(30));
            Map<Long, Instant> picks = picks(random, accounts);
            List<Route> tier = new ArrayList<>();
            accounts.forEach(a -> tier.add(new Route(a, MODEL, MODEL)));
            RankingContext context = context(picks, 1);

            Map<Long, Long> weights = TierPick.weights(tier, context);

            assertEquals(oracle(accounts, picks), weights, "round " + round);
        }
    }

    @Test
    void aPlanRanksAsItsTiersRankedFromPlainRoutes() {
        Random random = new Random(11);
        int settledTiers = 0;
        for (int round = 0; round < 300; round++) {
            List<Account> accounts = pool(random, 2 + random.nextInt(40));
            Map<Long, Instant> picks = picks(random, accounts);
            PoolRoutes pool = PoolRoutes.of(accounts, Map.of());
            long seed = random.nextLong();

            Plan plan = new SelectionPipeline().plan(request(picks), pool, NOW, new SeededRandom(seed));

            Map<Integer, List<Route>> tiers = new TreeMap<>();
            for (Account a : accounts) {
                if (a.failure().blockedUntil() == null || !a.failure().blockedUntil().isAfter(NOW)) {
                    tiers.computeIfAbsent(a.priority(), p -> new ArrayList<>()).add(new Route(a, MODEL, MODEL));
                }
            }
            RankingContext context = context(picks, seed);
            List<Long> expected = new ArrayList<>();
            for (List<Route> tier : tiers.values()) {
                TierPick.order(tier, context).forEach(route -> expected.add(route.account().id()));
                settledTiers += tier.size() == servedOf(accounts, tier.get(0).account().priority()) ? 1 : 0;
            }
            List<Long> actual = new ArrayList<>();
            plan.candidates().forEach(c -> actual.add(c.accountId()));
            assertEquals(expected, actual, "round " + round);
        }
        assertTrue(settledTiers > 50, "the kept weights were used: " + settledTiers);
    }

    @Test
    void lastUsesOutsideTheColumnsRangeRankLikeItsBounds() {
        assertEquals(EpochNanos.NEVER, EpochNanos.of(null));
        assertEquals(null, EpochNanos.toInstant(EpochNanos.NEVER));
        assertEquals(NOW, EpochNanos.toInstant(EpochNanos.of(NOW)));
        Instant early = Instant.parse("1960-01-01T00:00:00.5Z");
        assertEquals(early, EpochNanos.toInstant(EpochNanos.of(early)));
        long far = EpochNanos.of(Instant.MAX);
        long ancient = EpochNanos.of(Instant.MIN);
        assertTrue(far > 0 && ancient < 0 && ancient != EpochNanos.NEVER);
        assertTrue(far - ancient > 0, "a difference of two column values never overflows");
        assertEquals(SETTINGS.idleBonusMaxPpm(), TierPick.idleBonusPpm(Instant.MIN, NOW, SETTINGS));
        assertEquals(0, TierPick.idleBonusPpm(Instant.MAX, NOW, SETTINGS));
        assertEquals(far, EpochNanos.span(Duration.ofSeconds(Long.MAX_VALUE)));
        assertEquals(-far, EpochNanos.span(Duration.ofSeconds(Long.MIN_VALUE)));
        assertEquals(100_000_000L, EpochNanos.span(Duration.ofMillis(100)));
    }

    /** S-4 from the accounts: 10 × quota ratio in the tier + idle bonus (the later of stored use and pick) + 3 × success. */
    private static Map<Long, Long> oracle(List<Account> tier, Map<Long, Instant> picks) {
        long maxQuota = 0;
        long maxWeight = 0;
        for (Account a : tier) {
            if (a.quotaRemaining() != null) {
                maxQuota = Math.max(maxQuota, a.quotaRemaining());
            } else {
                maxWeight = Math.max(maxWeight, a.weight());
            }
        }
        Map<Long, Long> weights = new HashMap<>();
        for (Account a : tier) {
            long ratio = a.quotaRemaining() != null ? Math.min(1_000_000, a.quotaRemaining() * 1_000_000 / maxQuota)
                    : Math.min(1_000_000, a.weight() * 1_000_000L / maxWeight);
            Instant picked = picks.get(a.id());
            Instant last = a.lastUsedAt() == null ? picked
                    : picked == null || !picked.isAfter(a.lastUsedAt()) ? a.lastUsedAt() : picked;
            long bonus = last == null ? SETTINGS.idleBonusMaxPpm()
                    : Math.min(SETTINGS.idleBonusMaxPpm(), Math.max(0, Duration.between(last, NOW).toMillis())
                            * SETTINGS.idleBonusPerHourPpm() / 3_600_000L);
            long total = a.successCount() + a.errorCount();
            long success = total == 0 ? 1_500_000 : a.successCount() * 1_000_000 / total;
            weights.put(a.id(), 10 * ratio + bonus + 3 * success);
        }
        return weights;
    }

    private static List<Account> pool(Random random, int size) {
        List<Account> accounts = new ArrayList<>();
        for (int id = 1; id <= size; id++) {
            AccountMother a = account(id).maps(MODEL, MODEL).priority(random.nextInt(2)).weight(1 + random.nextInt(5))
                    .counts(random.nextInt(3) == 0 ? 0 : random.nextInt(1_000), random.nextInt(50));
            if (random.nextBoolean()) {
                a.quota(1L + random.nextInt(1_000_000));
            }
            if (random.nextInt(3) > 0) {
                a.lastUsedAt(NOW.minusMillis(random.nextInt(4 * 3_600_000) - 60_000L).minusNanos(random.nextInt(999_999)));
            }
            if (random.nextInt(8) == 0) {
                a.coolingUntil(NOW.plusSeconds(30)); // the tier loses it: its largest quota or weight may change
            }
            accounts.add(a.build());
        }
        return accounts;
    }

    private static Map<Long, Instant> picks(Random random, List<Account> accounts) {
        Map<Long, Instant> picks = new HashMap<>();
        for (Account a : accounts) {
            if (random.nextBoolean()) {
                picks.put(a.id(), NOW.minusNanos(random.nextInt(300_000_000)));
            }
        }
        return picks;
    }

    private static int servedOf(List<Account> accounts, int priority) {
        return (int) accounts.stream().filter(a -> a.priority() == priority).count();
    }

    private static SelectionRequest request(Map<Long, Instant> picks) {
        return SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, MODEL).withSettings(SETTINGS)
                .withInputs(RankingInputs.NONE.withLastPickedAt(picks));
    }

    private static RankingContext context(Map<Long, Instant> picks, long seed) {
        return new RankingContext(request(picks), NOW, new SeededRandom(seed));
    }
}
