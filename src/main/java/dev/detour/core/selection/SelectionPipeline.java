package dev.detour.core.selection;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.keys.KeyStrategy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * SPEC S-1/S-2 as one pure function of (request, pool, model states, now, random). The order is
 * fixed (seed: "the order cannot be changed"): key authorization (scope, S-10 blocks, ratio
 * ceiling) → load filter → endpoint family → model filter + model key → model state by (account,
 * model key) → partition → ranking by the key's strategy (S-3/S-4) → native before bridged within a
 * tier (B-1) → session/cache affinity
 * (S-6/S-8), or the S-2 probe fallback when nothing is eligible.
 *
 * <p>When some route is eligible the plan holds only the eligible routes, ranked; cooling routes
 * are not appended behind them (they are recorded as {@code rejected_cooling}): the attempt loop
 * fails over within the eligible set, and a cooling route is tried only as the S-2 last resort.
 */
public final class SelectionPipeline {
    private final Function<KeyStrategy, Strategy> strategies;

    public SelectionPipeline() {
        this(Strategies::forKey);
    }

    public SelectionPipeline(Function<KeyStrategy, Strategy> strategies) {
        this.strategies = strategies;
    }

    public Plan plan(SelectionRequest request, List<Account> accounts, Map<ModelStateKey, ModelState> modelStates,
            Instant now, RandomSource random) {
        return plan(request, PoolRoutes.of(accounts, modelStates), now, random);
    }

    /** The plan over a pool whose served routes are kept between requests (the gateway's snapshot). */
    public Plan plan(SelectionRequest request, PoolRoutes pool, Instant now, RandomSource random) {
        if (!request.keyPolicy().allowsModel(request.requestedModel())) {
            return modelNotAllowed(pool.accounts());
        }
        Screening screening = Screening.of(request, pool, now);
        if (screening.error() != null) {
            return Plan.failed(screening.error(), null, screening.rejections());
        }
        Partition partition = Partition.of(screening, request, now);
        List<Rejection> rejections = new ArrayList<>(screening.rejections());
        rejections.addAll(partition.dropped());
        if (!partition.eligible().isEmpty()) {
            Strategy strategy = strategies.apply(request.keyPolicy().strategy());
            RankingContext context = new RankingContext(request, now, random);
            List<Candidate> ranked = SessionAffinity.apply(strategy.ranking(partition.eligible(), context), context);
            partition.cooling().forEach(c -> rejections.add(c.rejection()));
            return Plan.selected(ranked, rejections);
        }
        return fallback(partition, rejections);
    }

    /**
     * S-2: nothing eligible. Only hard drops left → {@code model_unavailable} (a cooldown alone never
     * produces it). Otherwise the single soonest-recovering route of Detour's own cooldowns; when
     * none is left because every other cooling route waits for a window its upstream stated on a 429
     * → {@code route_pool.rate_limited}, retry when the first route recovers (C-4': nobody is called);
     * when every cooling route sits in a halted group → {@code route_pool.halted}, retry when the
     * first halt lifts.
     */
    private static Plan fallback(Partition partition, List<Rejection> rejections) {
        if (partition.cooling().isEmpty()) {
            return Plan.failed(PoolErrorCode.MODEL_UNAVAILABLE, null, rejections);
        }
        Partition.Cooled probe = partition.soonestRecovering();
        for (Partition.Cooled c : partition.cooling()) {
            if (c != probe) {
                rejections.add(c.rejection());
            }
        }
        if (probe == null && partition.anyStated()) {
            return Plan.failed(PoolErrorCode.RATE_LIMITED, partition.earliestRecovery(), rejections);
        }
        if (probe == null) {
            return Plan.failed(PoolErrorCode.HALTED, partition.earliestHaltEnd(), rejections);
        }
        Candidate candidate = Candidate.of(probe.route(), probe.until(), ReasonCode.PROBE_FALLBACK_SOONEST_RECOVERY);
        return Plan.selected(List.of(candidate), rejections);
    }

    /** K-2 (normally checked earlier by the key check): the model is outside the key's allowed list. */
    private static Plan modelNotAllowed(List<Account> accounts) {
        List<Rejection> rejections = accounts.stream()
                .map(a -> new Rejection(a.id(), ReasonCode.REJECTED_MODEL_NOT_ALLOWED))
                .toList();
        return Plan.failed(PoolErrorCode.KEY_MODEL_NOT_ALLOWED, null, rejections);
    }
}
