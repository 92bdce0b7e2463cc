package dev.detour.core.selection;

import dev.detour.core.account.Account;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
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

    /** A route and its S-4 weight, so sorting compares two fields instead of looking weights up (N-10). */
    private record Weighted(Route route, long weight) {
        static final Comparator<Weighted> HEAVIEST_FIRST = (a, b) -> a.weight != b.weight
                ? Long.compare(b.weight, a.weight)
                : Long.compare(a.route.account().id(), b.route.account().id());
    }

    /**
     * A recently used route and its last use as read once: the picks are live (another request may pick the
     * account meanwhile), and a sort must see one value per route.
     */
    private record Used(Route route, Instant lastUse) {
        static final Comparator<Used> LEAST_RECENT_FIRST = Comparator.comparing(Used::lastUse)
                .thenComparingLong(u -> u.route().account().id());
    }

    static List<Route> order(List<Route> tier, RankingContext context) {
        Ranking ranking = new Ranking(tier, context);
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
        private final Weighted[] byWeight;
        private final int shortlisted;
        private final RankingContext context;

        Ranking(List<Route> tier, RankingContext context) {
            this.context = context;
            this.byWeight = weighted(tier, context);
            this.shortlisted = Math.min(SHORTLIST, byWeight.length);
            for (int i = 0; i < shortlisted; i++) { // a partial selection: the i-th heaviest into place i
                int heaviest = i;
                for (int j = i + 1; j < byWeight.length; j++) {
                    if (Weighted.HEAVIEST_FIRST.compare(byWeight[j], byWeight[heaviest]) < 0) {
                        heaviest = j;
                    }
                }
                Weighted swap = byWeight[i];
                byWeight[i] = byWeight[heaviest];
                byWeight[heaviest] = swap;
            }
        }

        /** The shortlist in its S-4 order: fresh ones by weighted draw, then the recently used by last use. */
        List<Route> shortlist() {
            List<Weighted> fresh = new ArrayList<>(shortlisted);
            List<Used> recent = new ArrayList<>(0);
            Duration gap = context.settings().minPickGap();
            for (int i = 0; i < shortlisted; i++) {
                Route route = byWeight[i].route();
                Instant last = context.lastUse(route);
                if (last != null && context.now().isBefore(last.plus(gap))) {
                    recent.add(new Used(route, last));
                } else {
                    fresh.add(byWeight[i]);
                }
            }
            recent.sort(Used.LEAST_RECENT_FIRST);
            List<Route> ordered = new ArrayList<>(shortlisted);
            for (Weighted w : WeightedOrder.order(fresh, Weighted::weight, context.random())) {
                ordered.add(w.route());
            }
            recent.forEach(used -> ordered.add(used.route()));
            return ordered;
        }

        /** The accounts beyond the shortlist, heaviest first: failover only. */
        List<Route> failover() {
            Arrays.sort(byWeight, shortlisted, byWeight.length, Weighted.HEAVIEST_FIRST);
            List<Route> rest = new ArrayList<>(byWeight.length - shortlisted);
            for (int i = shortlisted; i < byWeight.length; i++) {
                rest.add(byWeight[i].route());
            }
            return rest;
        }
    }

    /** The S-4 weight of every account of the tier, by account id. */
    static Map<Long, Long> weights(List<Route> tier, RankingContext context) {
        Map<Long, Long> weights = new HashMap<>();
        for (Weighted w : weighted(tier, context)) {
            weights.put(w.route().account().id(), w.weight());
        }
        return weights;
    }

    private static Weighted[] weighted(List<Route> tier, RankingContext context) {
        long maxQuota = 0;
        long maxWeight = 0;
        for (Route route : tier) {
            Account a = route.account();
            if (a.quotaRemaining() != null) {
                maxQuota = Math.max(maxQuota, a.quotaRemaining());
            } else {
                maxWeight = Math.max(maxWeight, a.weight());
            }
        }
        Weighted[] weighted = new Weighted[tier.size()];
        for (int i = 0; i < weighted.length; i++) {
            Route route = tier.get(i);
            long quota = quotaRatioPpm(route.account(), maxQuota, maxWeight);
            long idle = idleBonusPpm(context.lastUse(route), context.now(), context.settings());
            weighted[i] = new Weighted(route, 10 * quota + idle + 3 * successRatePpm(route.account()));
        }
        return weighted;
    }

    /** quota_remaining / the tier's max quota; with quota unknown, weight / the tier's max weight (of such accounts). */
    static long quotaRatioPpm(Account account, long tierMaxQuota, long tierMaxWeight) {
        if (account.quotaRemaining() != null) {
            return Math.min(Ppm.ONE, Ppm.ratio(account.quotaRemaining(), tierMaxQuota));
        }
        return Math.min(Ppm.ONE, Ppm.ratio(account.weight(), tierMaxWeight));
    }

    /** min(hours idle × per-hour bonus, max bonus); the full bonus when never used. */
    static long idleBonusPpm(Instant lastUse, Instant now, SelectionSettings settings) {
        if (lastUse == null) {
            return settings.idleBonusMaxPpm();
        }
        long idleMillis = Math.max(0, Duration.between(lastUse, now).toMillis());
        long bonus = Ppm.times(idleMillis, settings.idleBonusPerHourPpm()) / MILLIS_PER_HOUR;
        return Math.min(bonus, settings.idleBonusMaxPpm());
    }

    /** ok / (ok + errors) from the account's counters; 1.5 (neutral, trusting) without any. */
    static long successRatePpm(Account account) {
        long total = account.successCount() + account.errorCount();
        return total <= 0 ? SUCCESS_RATE_WITHOUT_DATA_PPM : Ppm.ratio(account.successCount(), total);
    }
}
