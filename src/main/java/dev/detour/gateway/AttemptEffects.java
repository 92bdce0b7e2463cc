package dev.detour.gateway;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.ModelState;
import dev.detour.core.failure.Failure;
import dev.detour.core.selection.Candidate;
import dev.detour.core.selection.GroupView;
import dev.detour.core.selection.ModelStateKey;
import dev.detour.core.selection.PoolAnswer;
import dev.detour.gateway.admission.SmartKeyFacts;
import dev.detour.gateway.live.LoadDistribution;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.live.StateRecorder;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.EventSink;
import dev.detour.gateway.port.UpstreamClient;
import java.time.Instant;
import java.util.Objects;

/**
 * What Detour remembers after an attempt, in one place: the pool state (C-1 … C-6), the account's
 * usage touch, the real-traffic route stats (S-3), session bindings and halts (S-6, S-9), the key's
 * spend (K-2) and the request's trace. The attempt loop says what happened; this says what follows.
 */
final class AttemptEffects {
    private final PoolSnapshot snapshot;
    private final StateRecorder state;
    private final EventSink events;
    private final SmartKeyFacts smart;
    private final LoadDistribution load;
    private final UpstreamClient upstream;

    AttemptEffects(PoolSnapshot snapshot, StateRecorder state, EventSink events, SmartKeyFacts smart, LoadDistribution load,
            UpstreamClient upstream) {
        this.snapshot = Objects.requireNonNull(snapshot);
        this.state = Objects.requireNonNull(state);
        this.events = Objects.requireNonNull(events);
        this.smart = Objects.requireNonNull(smart);
        this.load = Objects.requireNonNull(load);
        this.upstream = Objects.requireNonNull(upstream);
    }

    /** An account that failed and will not be tried again in this request (P-3: one failure per account). */
    void failed(ClientCall call, Candidate candidate, Failure failure, Trace trace, Instant now) {
        Account account = candidate.account();
        if (upstream.closed()) {
            // D-3: Detour's own shutdown cut this exchange at the end of the grace; no account failed
            trace.failedAttempts.add(new PoolAnswer.FailedAttempt(failure, usableAt(account.id(),
                    candidate.modelKey(), now)));
            return;
        }
        smart.stats().record(account.id(), candidate.modelKey(), false, null); // S-3: real traffic only
        state.onFailure(account, candidate.modelKey(), failure, now);
        trace.failedAttempts.add(new PoolAnswer.FailedAttempt(failure, usableAt(account.id(), candidate.modelKey(),
                now)));
        events.touchAccount(account.id(), false, now, null);
        // S-6: a bound account that fails is unbound (the request falls through); S-9 collects the failure
        trace.failed.add(new LoadDistribution.Failed(account, failure));
        load.bindings().unbind(call.key().id(), call.peek().sessionId(), call.peek().model(), account.id(), now);
    }

    /** S-9: every attempt of the request failed. */
    void requestFailed(Trace trace, Instant now) {
        load.requestFailed(trace.failed, now);
    }

    /**
     * A delivered answer (buffered, or a stream that ended well): the key's cost and spend (K-2), the
     * route's outcome and TTFT (S-3), response and conversation bindings (P-10, P-10'), the session
     * binding, cost ledger and group halt (S-6, S-7, S-9), then success clearing (C-5).
     */
    void delivered(ClientCall call, Candidate candidate, Trace trace, String responseId, Integer ttftMs,
            long costMicros, Instant now) {
        Account account = candidate.account();
        chargeKey(call, candidate, trace);
        smart.stats().record(account.id(), candidate.modelKey(), true, ttftMs);
        if (responseId != null) {
            smart.bindResponse(responseId, account.id(), now);
        }
        String conversation = call.peek().conversationBindingKey();
        if (conversation != null) {
            // P-10': the conversation now has state here; its next requests come back to this account
            smart.bindResponse(conversation, account.id(), now);
        }
        load.bindings().served(call.key().id(), call.peek().sessionId(), call.peek().model(), account.id(), now);
        if (costMicros >= 0 && trace.usage != null) {
            load.observeCost(account.id(), candidate.modelKey(), costMicros,
                    trace.usage.promptTotal() + trace.usage.output(), now); // S-7: every token, cached or not
        }
        load.groupSucceeded(account.groupId(), now);
        state.onSuccess(account, candidate.modelKey(), now);
        events.touchAccount(account.id(), true, now, candidate.modelKey());
    }

    /** P-7: a client cancel is never charged to the account; P-7': the key pays for the usage that came. */
    void cancelled(ClientCall call, Candidate candidate, Trace trace) {
        chargeKey(call, candidate, trace);
    }

    /** P-6: a stream cut after its first frame: charged for what came (P-7'), recorded, never retried. */
    void cut(ClientCall call, Candidate candidate, Failure failure, Trace trace, Instant now) {
        chargeKey(call, candidate, trace);
        if (!upstream.closed()) { // D-3: a stream cut by Detour's own shutdown is no failure of the account
            state.onFailure(candidate.account(), candidate.modelKey(), failure, now);
            events.touchAccount(candidate.account().id(), false, now, null);
        }
    }

    /**
     * K-2 / P-7': the event's cost and the key's spend from the usage that arrived — the same sum for a
     * completed, a cancelled and a cut stream (the event cost is what the spend is later stored from).
     */
    private void chargeKey(ClientCall call, Candidate candidate, Trace trace) {
        GroupView group = snapshot.view().groups().get(candidate.account().groupId());
        long ratio = group == null ? GroupView.RATIO_ONE : group.ratioPpm();
        trace.costMicros = smart.settle(call.key().id(), candidate.modelKey(), call.peek().model(), ratio,
                trace.usage);
    }

    /** When the route (account block, model cooldown) is usable again after its recorded failure; null: at once. */
    private Instant usableAt(long accountId, String modelKey, Instant now) {
        PoolSnapshot.View view = snapshot.view();
        Account current = view.byId().get(accountId);
        Instant until = current == null || current.failure() == null ? null : current.failure().blockedUntil();
        ModelState row = modelKey == null ? null : view.models().get(new ModelStateKey(accountId, modelKey));
        until = AccountFailureState.later(until, row == null ? null : row.cooldownUntil());
        return until != null && until.isAfter(now) ? until : null;
    }
}
