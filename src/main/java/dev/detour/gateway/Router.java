package dev.detour.gateway;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.core.selection.Plan;
import dev.detour.core.selection.PoolAnswer;
import dev.detour.core.selection.PoolErrorCode;
import dev.detour.core.selection.PoolRoutes;
import dev.detour.core.selection.RandomSource;
import dev.detour.core.selection.RankingInputs;
import dev.detour.core.selection.SelectionPipeline;
import dev.detour.core.selection.SelectionRequest;
import dev.detour.gateway.admission.SmartKeyFacts;
import dev.detour.gateway.live.LoadDistribution;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.port.RequestPeek;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Key checks before routing (K-2) and the selection plan from the snapshot (S-1, S-2), turned
 * into either a plan or a client-visible refusal with a stable code (P-8).
 */
public final class Router {
    /** {@code type} is the envelope's {@code error.type} (P-8'), or null for the family's default. */
    public record Refusal(int status, String code, String message, long retryAfterSeconds, String type) {
        public Refusal(int status, String code, String message, long retryAfterSeconds) {
            this(status, code, message, retryAfterSeconds, null);
        }
    }

    /**
     * @param stateBoundUnknown P-10': the request continues state Detour has no binding for (a
     *                          {@code conversation} or {@code previous_response_id} never seen, or older than
     *                          its binding): the first account it reaches keeps it
     */
    public record Decision(Plan plan, Refusal refusal, boolean stateBoundUnknown) {
        public Decision(Plan plan, Refusal refusal) {
            this(plan, refusal, false);
        }
    }

    /** P-10: the code of a state-bound request whose account cannot take it (502). */
    public static final String STATE_BOUND_UNAVAILABLE = "route_pool.state_bound_unavailable";

    /** Selection's randomness on the request path: the calling thread's generator (no shared lock). */
    public static final RandomSource THREAD_RANDOM = new RandomSource() {
        @Override
        public long nextLong(long bound) {
            return ThreadLocalRandom.current().nextLong(bound);
        }

        @Override
        public double nextDouble() {
            return ThreadLocalRandom.current().nextDouble();
        }
    };

    private final SelectionPipeline pipeline;
    private final RandomSource random;
    private final SmartKeyFacts smart;
    private final LoadDistribution load;

    /**
     * Every collaborator is required: a router without smart-key facts gets {@link SmartKeyFacts#none()}, one on
     * a single instance a {@link LoadDistribution} that was never told of others (its share is the whole limit).
     */
    public Router(SelectionPipeline pipeline, RandomSource random, SmartKeyFacts smart, LoadDistribution load) {
        this.pipeline = Objects.requireNonNull(pipeline);
        this.random = Objects.requireNonNull(random);
        this.smart = Objects.requireNonNull(smart);
        this.load = Objects.requireNonNull(load);
    }

    /** S-5: how many requests this instance may have in flight at an account with {@code maxInFlight}. */
    public int capacityShare(int maxInFlight) {
        return load.capacityShare(maxInFlight);
    }

    public Decision decide(PoolSnapshot.View view, ClientCall call, Instant now) {
        String model = call.peek().model();
        var policy = call.key().policy();
        if (!policy.allowsModel(model)) {
            Plan none = Plan.failed(PoolErrorCode.KEY_MODEL_NOT_ALLOWED, null, List.of());
            return new Decision(none, new Refusal(403, PoolErrorCode.KEY_MODEL_NOT_ALLOWED.code(),
                    "this key may not use model " + model + "; request " + call.requestId(), 0));
        }
        Refusal spend = spendLimitRefusal(call);
        if (spend != null) {
            return new Decision(Plan.failed(PoolErrorCode.NO_ELIGIBLE_ROUTE, null, List.of()), spend);
        }
        SelectionRequest request = withLoadInputs(smartRequest(call.family(), model, policy, view), call, now);
        Long bound = stateBoundAccount(call, now);
        PoolRoutes pool = bound == null ? view.routesFor(policy.groups())
                : view.routes().subset(onlyAccount(view.accounts(), bound));
        Plan plan = pipeline.plan(request, pool, now, random);
        if (!plan.isSelected() && bound == null && pool != view.routes()) {
            // a refusal names every account and why, and tells a key's scope that removed a server (K-2
            // no_eligible_route) from a model nobody serves: planned again over the whole pool
            plan = pipeline.plan(request, view.routes(), now, random);
        }
        unbindIfIneligible(request, plan, call, now);
        if (plan.isSelected()) {
            return new Decision(plan, null, bound == null && call.peek().stateBound());
        }
        if (bound != null && plan.error() != PoolErrorCode.RATE_LIMITED) {
            // C-4': a bound account inside its upstream's stated window is a wait (429 below), not a loss
            return new Decision(plan, stateBoundRefusal(call, bound));
        }
        PoolErrorCode error = plan.error();
        // S-9 / C-4': Retry-After is the time to the halt's (or the stated window's) end rounded up (an exact
        // 30 s halt says 30, not 31)
        long retryAfter = plan.retryAfter() == null ? 0
                : Math.max(1, (Duration.between(now, plan.retryAfter()).toMillis() + 999) / 1000);
        // P-8': status and envelope type by cause (404 unmatched, 503 unavailable, 429 stated windows)
        PoolAnswer answer = PoolAnswer.refusal(error, call.family().protocol() == EndpointFamily.Protocol.ANTHROPIC,
                retryAfter);
        return new Decision(plan, new Refusal(answer.status(), answer.code(),
                RefusalMessages.of(error, model, plan) + "; 0 attempts; request " + call.requestId(),
                answer.retryAfterSeconds(), answer.type()));
    }

    /**
     * S-4 / S-6 / S-7 (load distribution): the site's selection settings, the live ranking inputs
     * (last pick per account, cost ledger) and the account this key + session is bound to.
     */
    private SelectionRequest withLoadInputs(SelectionRequest request, ClientCall call, Instant now) {
        Long sticky = load.bindings().lookup(call.key().id(), call.peek().sessionId(), call.peek().model(), now);
        return withSiteSettings(request).withStickyAccount(sticky);
    }

    /** The site's selection settings (ceilings, latency samples) and the live load inputs; a preview uses them too. */
    private SelectionRequest withSiteSettings(SelectionRequest request) {
        // the smart-key inputs (prices, route stats) and the load inputs (picks, cost ledger) together
        RankingInputs live = load.rankingInputs();
        RankingInputs inputs = request.inputs().withLastPicks(live.lastPicks()).withCostLedger(live.costLedger());
        return request.withSettings(load.settings()).withInputs(inputs);
    }

    /** S-6: a bound account that is not among the planned candidates is unbound; the request falls through. */
    private void unbindIfIneligible(SelectionRequest request, Plan plan, ClientCall call, Instant now) {
        Long sticky = request.stickyAccountId();
        if (sticky == null || plan.hasCandidate(sticky)) {
            return;
        }
        load.bindings().unbind(call.key().id(), call.peek().sessionId(), call.peek().model(), sticky, now);
    }

    // ---- Smart keys: K-2 spend, S-10 blocks, S-3 inputs, P-10 state binding, E-2 preview ----

    /** E-2 route preview: what selection would do now for this key and model; calls no upstream. */
    public Plan preview(PoolSnapshot.View view, KeyEntry key, EndpointFamily family, String model, Instant now) {
        // the same site settings as live traffic, or the preview would judge ceilings and samples differently
        return pipeline.plan(withSiteSettings(smartRequest(family, model, key.policy(), view)), view.routes(), now,
                random);
    }

    /** S-1 request with the S-10 rules, prices and real-traffic stats (S-3). */
    SelectionRequest smartRequest(EndpointFamily family, String model, KeyPolicy policy, PoolSnapshot.View view) {
        return new SelectionRequest(family, model, policy, view.groups()).withBlockRules(smart.blockRules())
                .withInputs(smart.rankingInputs());
    }

    /** K-2: 429 {@code key.spend_limit} once the key's running spend reached its limit. */
    private Refusal spendLimitRefusal(ClientCall call) {
        KeyPolicy policy = call.key().policy();
        long spent = smart.spentMicros(call.key().id());
        if (!policy.spendLimitReached(spent)) {
            return null;
        }
        return new Refusal(429, "key.spend_limit", "this key has spent " + spent + " of its "
                + policy.spendLimitMicros() + " micros limit; request " + call.requestId(), 0);
    }

    /** P-10: the account that created the referenced response, or null when unknown (normal selection). */
    private Long stateBoundAccount(ClientCall call, Instant now) {
        RequestPeek peek = call.peek();
        if (!peek.stateBound()) {
            return null;
        }
        String id = peek.stateId();
        return id == null ? null : smart.boundAccount(id, now);
    }

    private static List<Account> onlyAccount(List<Account> accounts, long accountId) {
        return accounts.stream().filter(a -> a.id() == accountId).toList();
    }

    /** P-10: no cross-account failover for state-bound requests; their account cannot take it now. */
    private static Refusal stateBoundRefusal(ClientCall call, long accountId) {
        return new Refusal(502, STATE_BOUND_UNAVAILABLE, "this request continues a response stored on one route,"
                + " which cannot take it now; it is never sent elsewhere; 0 attempts; request " + call.requestId(), 0);
    }
}
