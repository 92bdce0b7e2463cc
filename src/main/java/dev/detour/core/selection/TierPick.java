package dev.detour.core.selection;

import dev.detour.core.account.Account;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * S-4 (seed pool-mechanism "三因子加权"): the order within one priority tier. Weight, in ppm points:
 * quota ratio × 10 + idle bonus + success rate × 3. The tier is sorted by weight (ties by account
 * id), the top five form the shortlist, and the shortlist is put in a weighted random order — but
 * an account used within {@code min_pick_gap} steps back (anti-thundering-herd) unless the whole
 * shortlist was just used, then the least recently used leads. Accounts beyond the shortlist
 * follow by weight, as failover.
 */
final class TierPick {
    static final int SHORTLIST = 5;
    static final long SUCCESS_RATE_WITHOUT_DATA_PPM = 1_500_000L;
    private static final long MILLIS_PER_HOUR = 3_600_000L;

    private TierPick() {
    }

    /** A shortlisted route and its S-4 weight, for the weighted draw. */
    private record Weighted(Route route, long weight) {
    }

    /**
     * A recently used route and its last use as read once: the picks are live (another request may pick the
     * account meanwhile), and a sort must see one value per route.
     */
    private record Used(Route route, long lastUse, long accountId) {
        static final Comparator<Used> LEAST_RECENT_FIRST = Comparator.comparingLong(Used::lastUse)
                .thenComparingLong(Used::accountId);
    }

    static List<Route> order(List<Route> tier, RankingContext context) {
        Ranking ranking = new Ranking(EligibleRoutes.of(tier, context.request().family()), context);
        List<Route> ordered = new ArrayList<>(tier.size());
        ordered.addAll(ranking.shortlist());
        ordered.addAll(ranking.failover());
        return ordered;
    }

    /**
     * One tier's S-4 order in two parts, so a plan ranks only what the attempt loop reaches (N-10): the
     * shortlist (the five heaviest, put in their weighted random order: the only draws) and then, asked
     * for only when the loop gets past the shortlist, the failover tail sorted by weight. Together they are
     * exactly {@link #order}: the five heaviest are picked out without sorting the rest, and the comparator is
     * total (ties by account id), so sorting the rest later gives the same places.
     */
    static final class Ranking {
        private final EligibleRoutes tier;
        private final Weights weights;
        /** Indexes into the tier of its heaviest routes, heaviest first: the shortlist. */
        private final int[] top;
        private final RankingContext context;

        Ranking(EligibleRoutes tier, RankingContext context) {
            this.tier = tier;
            this.context = context;
            this.weights = Weights.of(tier, context);
            this.top = weights.heaviest(Math.min(SHORTLIST, tier.size()));
        }

        /** The shortlist in its S-4 order: fresh ones by weighted draw, then the recently used by last use. */
        List<Route> shortlist() {
            List<Weighted> fresh = new ArrayList<>(top.length);
            List<Used> recent = new ArrayList<>(0);
            long gap = EpochNanos.span(context.settings().minPickGap());
            for (int i : top) {
                Route route = tier.get(i);
                long last = weights.lastUse[i]; // the last use the weight was computed from
                if (last != EpochNanos.NEVER && weights.now - last < gap) {
                    recent.add(new Used(route, last, weights.id[i]));
                } else {
                    fresh.add(new Weighted(route, weights.weight[i]));
                }
            }
            recent.sort(Used.LEAST_RECENT_FIRST);
            List<Route> ordered = new ArrayList<>(top.length);
            for (Weighted w : WeightedOrder.order(fresh, Weighted::weight, context.random())) {
                ordered.add(w.route());
            }
            recent.forEach(used -> ordered.add(used.route()));
            return ordered;
        }

        /** The accounts beyond the shortlist, heaviest first: failover only. */
        List<Route> failover() {
            boolean[] shortlisted = new boolean[tier.size()];
            for (int i : top) {
                shortlisted[i] = true;
            }
            List<Integer> rest = new ArrayList<>(tier.size() - top.length);
            for (int i = 0; i < tier.size(); i++) {
                if (!shortlisted[i]) {
                    rest.add(i);
                }
            }
            rest.sort(weights::order); // the same order that chose the shortlist
            List<Route> routes = new ArrayList<>(rest.size());
            rest.forEach(i -> routes.add(tier.get(i)));
            return routes;
        }
    }

    /**
     * The S-4 weight, account id and last use (read once) of each route of a tier, by its index there: primitive
     * arrays, because a plan weighs every route of its first tier on every request, and an object per route was a
     * sixth of a 200-account pool's allocation per request (N-10). What it reads of each route comes from the
     * pool's columns ({@link RankFacts}, {@link ServedRoutes}), and the quota ratios kept there are used when the
     * tier's largest quota and weight are the ones they were worked out against (divisions were a large share of
     * the weighing). The shortlist's min-pick-gap check reads the same last use the weight was computed from.
     */
    private static final class Weights {
        final long[] weight;
        final long[] id;
        /** {@link EpochNanos}, or {@link EpochNanos#NEVER}. */
        final long[] lastUse;
        /** The request's time, in {@link EpochNanos}. */
        final long now;

        private Weights(int size, long now) {
            weight = new long[size];
            id = new long[size];
            lastUse = new long[size];
            this.now = now;
        }

        static Weights of(EligibleRoutes tier, RankingContext context) {
            RankFacts facts = tier.facts();
            ServedRoutes served = tier.served();
            int size = tier.size();
            int priority = tier.priority();
            // the settled weights kept with the pool hold for a tier of all the served routes of its priority
            // (the usual case: nothing cooling, nothing out of the key's reach), or one with the same largest
            // quota and weight; otherwise each is worked out here
            boolean settled = priority != EligibleRoutes.MIXED && size == served.tierSize(priority);
            long maxQuota = 0;
            long maxWeight = 0;
            if (!settled) {
                for (int i = 0; i < size; i++) {
                    int slot = tier.slot(i);
                    long quota = facts.quota[slot];
                    if (quota != RankFacts.NO_QUOTA) {
                        maxQuota = Math.max(maxQuota, quota);
                    } else {
                        maxWeight = Math.max(maxWeight, facts.weight[slot]);
                    }
                }
                settled = priority != EligibleRoutes.MIXED && served.settledWeightsHold(priority, maxQuota, maxWeight);
            }
            Weights w = new Weights(size, EpochNanos.of(context.now()));
            LastPicks picks = context.inputs().lastPicks();
            SelectionSettings settings = context.settings();
            for (int i = 0; i < size; i++) {
                int slot = tier.slot(i);
                // the later of the stored last use and the gateway's last pick (NEVER is below every time)
                long last = Math.max(facts.lastUsed[slot], picks.nanosOf(facts.id[slot]));
                w.lastUse[i] = last;
                w.id[i] = facts.id[slot];
                long settledWeight = settled ? served.settledWeight(slot) : settledWeightPpm(
                        quotaRatioPpm(facts.quota[slot], facts.weight[slot], maxQuota, maxWeight),
                        facts.successPpm[slot]);
                w.weight[i] = settledWeight + idleBonusPpm(last, w.now, settings);
            }
            return w;
        }

        /** Heavier first; equal weights by account id (a total order: the same places whatever the pool order). */
        private boolean heavier(int a, int b) {
            return weight[a] != weight[b] ? weight[a] > weight[b] : id[a] < id[b];
        }

        /** {@link #heavier} as a comparator of indexes, heaviest first. */
        int order(int a, int b) {
            return heavier(a, b) ? -1 : heavier(b, a) ? 1 : 0;
        }

        /**
         * The indexes of the {@code count} heaviest, heaviest first, in one pass: each route is compared with the
         * lightest of those kept so far (one comparison for most of a large tier, where a pass over the tier per
         * place cost a large pool's plan most of its time).
         */
        int[] heaviest(int count) {
            int[] top = new int[count];
            int kept = 0;
            for (int i = 0; i < weight.length && count > 0; i++) {
                if (kept == count && !heavier(i, top[kept - 1])) {
                    continue;
                }
                int at = kept < count ? kept++ : kept - 1; // the lightest kept drops out when all are taken
                while (at > 0 && heavier(i, top[at - 1])) {
                    top[at] = top[at - 1];
                    at--;
                }
                top[at] = i;
            }
            return top;
        }
    }

    /** The S-4 weight of every account of the tier, by account id. */
    static Map<Long, Long> weights(List<Route> tier, RankingContext context) {
        Weights w = Weights.of(EligibleRoutes.of(tier, context.request().family()), context);
        Map<Long, Long> weights = new HashMap<>();
        for (int i = 0; i < tier.size(); i++) {
            weights.put(w.id[i], w.weight[i]);
        }
        return weights;
    }

    /** S-4's weight but for the idle bonus: quota ratio × 10 + success rate × 3. */
    static long settledWeightPpm(long quotaRatioPpm, long successRatePpm) {
        return 10 * quotaRatioPpm + 3 * successRatePpm;
    }

    /** quota_remaining / the tier's max quota; with quota unknown, weight / the tier's max weight (of such accounts). */
    static long quotaRatioPpm(Account account, long tierMaxQuota, long tierMaxWeight) {
        return quotaRatioPpm(account.quotaRemaining() == null ? RankFacts.NO_QUOTA : account.quotaRemaining(),
                account.weight(), tierMaxQuota, tierMaxWeight);
    }

    /** {@link #quotaRatioPpm(Account, long, long)} of a quota ({@link RankFacts#NO_QUOTA} when unknown) and weight. */
    static long quotaRatioPpm(long quota, long weight, long tierMaxQuota, long tierMaxWeight) {
        if (quota != RankFacts.NO_QUOTA) {
            return Math.min(Ppm.ONE, Ppm.ratio(quota, tierMaxQuota));
        }
        return Math.min(Ppm.ONE, Ppm.ratio(weight, tierMaxWeight));
    }

    /** min(hours idle × per-hour bonus, max bonus); the full bonus when never used. */
    static long idleBonusPpm(Instant lastUse, Instant now, SelectionSettings settings) {
        return idleBonusPpm(EpochNanos.of(lastUse), EpochNanos.of(now), settings);
    }

    /** {@link #idleBonusPpm(Instant, Instant, SelectionSettings)} in {@link EpochNanos}. */
    static long idleBonusPpm(long lastUse, long now, SelectionSettings settings) {
        if (lastUse == EpochNanos.NEVER) {
            return settings.idleBonusMaxPpm();
        }
        long idleNanos = now - lastUse;
        if (idleNanos <= 0) {
            return 0; // a use at this moment or ahead of it (another instance's clock): no bonus
        }
        // Duration.between(lastUse, now).toMillis(), without a Duration per route (N-10); a division by a constant
        // of a positive number, which the JIT turns into a multiplication (Math.floorDiv's was a real division, a
        // tenth of the tier's weighing)
        long idleMillis = idleNanos / 1_000_000L;
        long bonus = Ppm.times(idleMillis, settings.idleBonusPerHourPpm()) / MILLIS_PER_HOUR;
        return Math.min(bonus, settings.idleBonusMaxPpm());
    }

    /** ok / (ok + errors) from the account's counters; 1.5 (neutral, trusting) without any. */
    static long successRatePpm(Account account) {
        long total = account.successCount() + account.errorCount();
        return total <= 0 ? SUCCESS_RATE_WITHOUT_DATA_PPM : Ppm.ratio(account.successCount(), total);
    }
}
