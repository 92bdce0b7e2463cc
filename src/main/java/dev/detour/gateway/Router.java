package dev.detour.gateway;

import dev.detour.core.selection.ModelCatalog;
import dev.detour.core.selection.Plan;
import dev.detour.core.selection.PoolErrorCode;
import dev.detour.core.selection.RandomSource;
import dev.detour.core.selection.SelectionPipeline;
import dev.detour.core.selection.SelectionRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Key checks before routing (K-2) and the selection plan from the snapshot (S-1, S-2), turned
 * into either a plan or a client-visible refusal with a stable code (P-8).
 */
public final class Router {
    public record Refusal(int status, String code, String message, long retryAfterSeconds) {
    }

    public record Decision(Plan plan, Refusal refusal) {
    }

    private static final RandomSource THREAD_RANDOM = new RandomSource() {
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
    private final LoadState load;

    public Router(SelectionPipeline pipeline, RandomSource random) {
        this(pipeline, random, null);
    }

    public Router(SelectionPipeline pipeline, RandomSource random, LoadState load) {
        this.pipeline = pipeline;
        this.random = random == null ? THREAD_RANDOM : random;
        this.load = load;
    }

    public Decision decide(PoolSnapshot.View view, ClientCall call, Instant now) {
        String model = call.peek().model();
        var policy = call.key().policy();
        if (!policy.allowsModel(model)) {
            Plan none = Plan.failed(PoolErrorCode.KEY_MODEL_NOT_ALLOWED, null, List.of());
            return new Decision(none, new Refusal(403, PoolErrorCode.KEY_MODEL_NOT_ALLOWED.code(),
                    "this key may not use model " + model + "; request " + call.requestId(), 0));
        }
        SelectionRequest request = withLoadInputs(new SelectionRequest(call.family(), model, policy, view.groups()),
                call, now);
        Plan plan = pipeline.plan(request, view.accounts(), view.models(), now, random);
        unbindIfIneligible(request, plan, call, now);
        if (plan.isSelected()) {
            return new Decision(plan, null);
        }
        PoolErrorCode error = plan.error();
        // S-9: Retry-After is the time to the halt's end rounded up (an exact 30 s halt says 30, not 31)
        long retryAfter = plan.retryAfter() == null ? 0
                : Math.max(1, (Duration.between(now, plan.retryAfter()).toMillis() + 999) / 1000);
        return new Decision(plan, new Refusal(error.httpStatus(), error.code(),
                message(error, model) + "; 0 attempts; request " + call.requestId(), retryAfter));
    }

    /**
     * S-4 / S-6 / S-7 (load distribution): the site's selection settings, the live ranking inputs
     * (last pick per account, cost ledger) and the account this key + session is bound to.
     */
    private SelectionRequest withLoadInputs(SelectionRequest request, ClientCall call, Instant now) {
        if (load == null) {
            return request;
        }
        Long sticky = load.bindings().lookup(call.key().id(), call.peek().sessionId(), call.peek().model(), now);
        return request.withSettings(load.settings()).withInputs(load.rankingInputs()).withStickyAccount(sticky);
    }

    /** S-6: a bound account that is not among the planned candidates is unbound; the request falls through. */
    private void unbindIfIneligible(SelectionRequest request, Plan plan, ClientCall call, Instant now) {
        Long sticky = request.stickyAccountId();
        if (load == null || sticky == null || plan.candidates().stream().anyMatch(c -> c.accountId() == sticky)) {
            return;
        }
        load.bindings().unbind(call.key().id(), call.peek().sessionId(), call.peek().model(), sticky, now);
    }

    private static String message(PoolErrorCode error, String model) {
        return switch (error) {
            case NO_ACCOUNTS -> "no enabled account is in the pool";
            case MODEL_UNMATCHED -> "no account maps model " + model;
            case MODEL_UNAVAILABLE -> "every account serving " + model + " has it paused or in error";
            case NO_ELIGIBLE_ROUTE -> "this key's policy leaves no route for " + model;
            case HALTED -> "every group serving " + model + " is halted";
            default -> error.code();
        };
    }

    /** P-9: the union of client-facing names the key may reach; paused models are not hidden. */
    public byte[] modelList(PoolSnapshot.View view, KeyEntry key) {
        StringBuilder json = new StringBuilder("{\"object\":\"list\",\"data\":[");
        List<String> names = ModelCatalog.clientModels(view.accounts(), key.policy());
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                json.append(',');
            }
            json.append("{\"id\":\"").append(ErrorEnvelope.escape(names.get(i)))
                    .append("\",\"object\":\"model\",\"created\":0,\"owned_by\":\"detour\"}");
        }
        return json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }
}
