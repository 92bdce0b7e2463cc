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
     * for only when the loop gets past the shortlist, the failover tail sorted by weight. The five heaviest are
     * kept in one pass that weighs each route and keeps nothing else (an array of weights, ids and last uses per
     * request was most of a 200-account plan's allocation); the tail is weighed again when it is asked for, at the
     * plan's time and with the last uses as they are then, and the comparator is total (ties by account id).
     * With the same last uses the two parts are exactly {@link #order}.
     */
    static final class Ranking {
        private final EligibleRoutes tier;
        private final Weighing weighing;
        /** The shortlist: the tier's heaviest routes, heaviest first, as weighed when the plan was made. */
        private final Heaviest top;
        private final RankingContext context;

        Ranking(EligibleRoutes tier, RankingContext context) {
            this.tier = tier;
            this.context = context;
            this.weighing = Weighing.of(tier, context);
            this.top = Heaviest.of(weighing, Math.min(SHORTLIST, tier.size()));
        }

        /** The shortlist in its S-4 order: fresh ones by weighted draw, then the recently used by last use. */
        List<Route> shortlist() {
            List<Weighted> fresh = new ArrayList<>(top.count);
            List<Used> recent = new ArrayList<>(0);
            long gap = EpochNanos.span(context.settings().minPickGap());
            for (int k = 0; k < top.count; k++) {
                Route route = tier.get(top.index[k]);
                long last = top.lastUse[k]; // the last use the weight was computed from
                if (last != EpochNanos.NEVER && weighing.now - last < gap) {
                    recent.add(new Used(route, last, top.id[k]));
                } else {
                    fresh.add(new Weighted(route, top.weight[k]));
                }
            }
            recent.sort(Used.LEAST_RECENT_FIRST);
            List<Route> ordered = new ArrayList<>(top.count);
            for (Weighted w : WeightedOrder.order(fresh, Weighted::weight, context.random())) {
                ordered.add(w.route());
            }
            recent.forEach(used -> ordered.add(used.route()));
            return ordered;
        }

        /** The accounts beyond the shortlist, heaviest first: failover only. */
        List<Route> failover() {
            boolean[] shortlisted = new boolean[tier.size()];
            for (int k = 0; k < top.count; k++) {
                shortlisted[top.index[k]] = true;
            }
            List<Integer> rest = new ArrayList<>(tier.size() - top.count);
            for (int i = 0; i < tier.size(); i++) {
                if (!shortlisted[i]) {
                    rest.add(i);
                }
            }
            Weights weights = Weights.of(weighing);
            rest.sort(weights::order); // the order that chose the shortlist
            List<Route> routes = new ArrayList<>(rest.size());
            rest.forEach(i -> routes.add(tier.get(i)));
            return routes;
        }
    }

    /** Heavier first; equal weights by account id (a total order: the same places whatever the pool order). */
    private static boolean heavier(long weight, long id, long otherWeight, long otherId) {
        return weight != otherWeight ? weight > otherWeight : id < otherId;
    }

    /**
     * How one request weighs the routes of one tier: what S-4 reads of each route comes from the pool's columns
     * ({@link RankFacts}, {@link ServedRoutes}) and the gateway's live last picks, and the quota ratios kept with the
     * pool are used when the tier's largest quota and weight are the ones they were worked out against (divisions
     * were a large share of the weighing).
     */
    private static final class Weighing {
        final EligibleRoutes tier;
        final RankFacts facts;
        final ServedRoutes served;
        final boolean settled;
        final long maxQuota;
        final long maxWeight;
        final LastPicks picks;
        final SelectionSettings settings;
        /** The request's time, in {@link EpochNanos}. */
        final long now;

        private Weighing(EligibleRoutes tier, boolean settled, long maxQuota, long maxWeight,
                RankingContext context) {
            this.tier = tier;
            this.facts = tier.facts();
            this.served = tier.served();
            this.settled = settled;
            this.maxQuota = maxQuota;
            this.maxWeight = maxWeight;
            this.picks = context.inputs().lastPicks();
            this.settings = context.settings();
            this.now = EpochNanos.of(context.now());
        }

        static Weighing of(EligibleRoutes tier, RankingContext context) {
            int priority = tier.priority();
            // the settled weights kept with the pool hold for a tier of all the served routes of its priority
            // (the usual case: nothing cooling, nothing out of the key's reach), or one with the same largest
            // quota and weight; otherwise each is worked out here
            if (priority != EligibleRoutes.MIXED && tier.size() == tier.served().tierSize(priority)) {
                return new Weighing(tier, true, 0, 0, context);
            }
            RankFacts facts = tier.facts();
            long maxQuota = 0;
            long maxWeight = 0;
            for (int i = 0; i < tier.size(); i++) {
                int slot = tier.slot(i);
                long quota = facts.quota[slot];
                if (quota != RankFacts.NO_QUOTA) {
                    maxQuota = Math.max(maxQuota, quota);
                } else {
                    maxWeight = Math.max(maxWeight, facts.weight[slot]);
                }
            }
            boolean settled = priority != EligibleRoutes.MIXED
                    && tier.served().settledWeightsHold(priority, maxQuota, maxWeight);
            return new Weighing(tier, settled, maxQuota, maxWeight, context);
        }

        int size() {
            return tier.size();
        }

        long id(int i) {
            return facts.id[tier.slot(i)];
        }

        /** The later of the stored last use and the gateway's last pick, read now (NEVER is below every time). */
        long lastUse(int i) {
            int slot = tier.slot(i);
            return Math.max(facts.lastUsed[slot], picks.nanosOf(facts.id[slot]));
        }

        /** The {@code i}-th route's S-4 weight, idle bonus from {@code lastUse}. */
        long weight(int i, long lastUse) {
            int slot = tier.slot(i);
            long settledWeight = settled ? served.settledWeight(slot) : settledWeightPpm(
                    quotaRatioPpm(facts.quota[slot], facts.weight[slot], maxQuota, maxWeight),
                    facts.successPpm[slot]);
            return settledWeight + idleBonusPpm(lastUse, now, settings);
        }
    }

    /**
     * The {@code count} heaviest routes of a tier, heaviest first, with the weight, id and last use each was weighed
     * with: one pass, each route compared with the lightest of those kept so far (one comparison for most of a
     * large tier).
     */
    private static final class Heaviest {
        final int count;
        /** Indexes into the tier. */
        final int[] index;
        final long[] weight;
        final long[] id;
        /** {@link EpochNanos}, or {@link EpochNanos#NEVER}. */
        final long[] lastUse;

        private Heaviest(int count) {
            this.count = count;
            index = new int[count];
            weight = new long[count];
            id = new long[count];
            lastUse = new long[count];
        }

        static Heaviest of(Weighing weighing, int count) {
            Heaviest top = new Heaviest(count);
            int kept = 0;
            for (int i = 0; i < weighing.size() && count > 0; i++) {
                long last = weighing.lastUse(i);
                long w = weighing.weight(i, last);
                long id = weighing.id(i);
                if (kept == count && !heavier(w, id, top.weight[kept - 1], top.id[kept - 1])) {
                    continue;
                }
                int at = kept < count ? kept++ : kept - 1; // the lightest kept drops out when all are taken
                while (at > 0 && heavier(w, id, top.weight[at - 1], top.id[at - 1])) {
                    top.move(at - 1, at);
                    at--;
                }
                top.index[at] = i;
                top.weight[at] = w;
                top.id[at] = id;
                top.lastUse[at] = last;
            }
            return top;
        }

        private void move(int from, int to) {
            index[to] = index[from];
            weight[to] = weight[from];
            id[to] = id[from];
            lastUse[to] = lastUse[from];
        }
    }

    /**
     * The S-4 weight and account id of each route of a tier, by its index there, in primitive arrays: what the
     * failover tail is sorted by, and what {@link #weights} reports.
     */
    private static final class Weights {
        final long[] weight;
        final long[] id;

        private Weights(int size) {
            weight = new long[size];
            id = new long[size];
        }

        static Weights of(Weighing weighing) {
            Weights w = new Weights(weighing.size());
            for (int i = 0; i < weighing.size(); i++) {
                w.id[i] = weighing.id(i);
                w.weight[i] = weighing.weight(i, weighing.lastUse(i));
            }
            return w;
        }

        /** {@link TierPick#heavier} as a comparator of indexes, heaviest first. */
        int order(int a, int b) {
            return heavier(weight[a], id[a], weight[b], id[b]) ? -1
                    : heavier(weight[b], id[b], weight[a], id[a]) ? 1 : 0;
        }
    }

    /** The S-4 weight of every account of the tier, by account id. */
    static Map<Long, Long> weights(List<Route> tier, RankingContext context) {
        Weights w = Weights.of(Weighing.of(EligibleRoutes.of(tier, context.request().family()), context));
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
