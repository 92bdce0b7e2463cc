package dev.detour.gateway;

import dev.detour.bridge.BridgeErrors;
import dev.detour.bridge.BridgeRefusal;
import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.Protocols;
import dev.detour.core.attempt.AttemptAction;
import dev.detour.core.attempt.AttemptRules;
import dev.detour.core.failure.Failure;
import dev.detour.core.secret.SecretMask;
import dev.detour.core.selection.Candidate;
import dev.detour.core.selection.Plan;
import dev.detour.core.selection.PoolAnswer;
import dev.detour.core.selection.ReasonCode;
import dev.detour.core.selection.Rejection;
import dev.detour.gateway.admission.KeyLimiter;
import dev.detour.gateway.admission.LimitHeadersSink;
import dev.detour.gateway.admission.SmartKeyFacts;
import dev.detour.gateway.live.Leases;
import dev.detour.gateway.live.LoadDistribution;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.live.StateRecorder;
import dev.detour.gateway.live.WaitQueue;
import dev.detour.gateway.live.Waiter;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.EventSink;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.port.Pauser;
import dev.detour.gateway.port.RequestEvent;
import dev.detour.gateway.port.RequestEvent.AttemptRecord;
import dev.detour.gateway.port.RequestEvent.Outcome;
import dev.detour.gateway.port.RequestEvent.RejectionRecord;
import dev.detour.gateway.port.ResponseSink;
import dev.detour.gateway.port.SecretLookup;
import dev.detour.gateway.port.UpstreamClient;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.wire.AnswerFacts;
import dev.detour.gateway.wire.HeaderPolicy;
import dev.detour.gateway.wire.KeyHashes;
import dev.detour.gateway.wire.ResponseIds;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The attempt loop (P-3): plan candidates, try each account at most once with same-account
 * retries by policy, record one failure per exhausted account, switch, and answer the client
 * exactly once. Every client request ends in exactly one {@link RequestEvent} (N-4).
 */
public final class Forwarder {
    /** D-3: the code of a request refused, or let go from the wait queue, because Detour is stopping. */
    public static final String SHUTTING_DOWN = "gateway.shutting_down";
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Forwarder.class);
    private final PoolSnapshot snapshot;
    private final Router router;
    private final UpstreamAttempt upstreamAttempt;
    private final Leases leases;
    private final SecretLookup secrets;
    private final Pauser pauser;
    private final Clock clock;
    private final LoadDistribution load;
    private final AttemptEffects effects;
    private final WaitQueue queue;
    private final KeyLimiter limits;
    private final ClientAnswers answers;
    private final StreamDelivery streams;
    private final Refusals refusals;

    /**
     * Every collaborator is required; a gateway without smart-key facts passes {@link SmartKeyFacts#none()}.
     * {@code smart}: cost and spend, route stats, response bindings; {@code load}: S-4 pick times, S-6
     * bindings, S-7 costs, S-9 halts, the C-6 half-open guard; {@code queue}: L-2's wait when every route is
     * full ({@link WaitQueue#none} for S-5's immediate 503).
     */
    public Forwarder(PoolSnapshot snapshot, Router router, UpstreamClient upstream, StateRecorder state, Leases leases,
            EventSink events, SecretLookup secrets, Pauser pauser, Clock clock, SmartKeyFacts smart,
            LoadDistribution load, WaitQueue queue) {
        this.snapshot = Objects.requireNonNull(snapshot);
        this.router = Objects.requireNonNull(router);
        this.upstreamAttempt = new UpstreamAttempt(Objects.requireNonNull(upstream));
        this.leases = Objects.requireNonNull(leases);
        this.secrets = Objects.requireNonNull(secrets);
        this.pauser = Objects.requireNonNull(pauser);
        this.clock = Objects.requireNonNull(clock);
        this.load = Objects.requireNonNull(load);
        this.effects = new AttemptEffects(snapshot, state, events, smart, load, upstream);
        this.queue = Objects.requireNonNull(queue);
        this.limits = smart.limits();
        this.answers = new ClientAnswers(Objects.requireNonNull(events));
        this.streams = new StreamDelivery(effects, answers, clock);
        this.refusals = new Refusals(answers);
    }

    /** The key presented by the client, if it is known, enabled and not expired (K-2); else null. */
    public KeyEntry authenticate(String presented) {
        if (presented == null || presented.isEmpty()) {
            return null;
        }
        KeyEntry key = snapshot.view().keysByHash().get(KeyHashes.sha256Hex(presented));
        return key != null && key.usableAt(clock.instant()) ? key : null;
    }

    /** Refuses a request before routing, with the protocol's envelope and one event. */
    public void reject(String requestId, EndpointFamily family, String path, String ip, long startNanos, int status,
            String code, String message, long retryAfterSeconds, ResponseSink sink) {
        refusals.beforeRouting(new Trace(requestId, null, family, null, false, ip, clock.instant(), startNanos),
                status, code, message, retryAfterSeconds, sink);
    }

    /** As {@link #reject}, for a request whose key checked out (its event names the key). */
    public void rejectForKey(String requestId, EndpointFamily family, KeyEntry key, String ip, long startNanos,
            int status, String code, String message, long retryAfterSeconds, ResponseSink sink) {
        refusals.beforeRouting(new Trace(requestId, key.id(), family, null, false, ip, clock.instant(), startNanos),
                status, code, message, retryAfterSeconds, sink);
    }

    public void forward(ClientCall call, ResponseSink clientSink) {
        Trace trace = new Trace(call.requestId(), call.key().id(), call.family(), call.peek().model(),
                call.peek().stream(), call.clientIp(), call.receivedAt(), call.receivedNanos());
        answers.started(trace); // D-5: logged as interrupted if the process dies before the request ends
        // L-1: the key's limits before selection; the model list calls no upstream and is not counted
        KeyLimiter.Admission admission = call.family() == EndpointFamily.MODELS ? KeyLimiter.Admission.NONE
                : limits.admit(call.key());
        ResponseSink sink = LimitHeadersSink.around(clientSink, admission.verdict()); // L-3
        try {
            if (admission.refused()) {
                refusals.overLimit(call, admission.verdict(), trace, sink);
                return;
            }
            route(call, trace, sink);
        } catch (RuntimeException e) {
            // N-4: even a defect ends in exactly one answer and one event
            log.error("request {} failed inside Detour", call.requestId(), e);
            if (!trace.finished) {
                if (sink.committed()) {
                    answers.finish(trace, Outcome.FAILURE, "internal");
                } else {
                    answers.error(trace, sink, 500, "internal", "internal error; request " + call.requestId(),
                            Outcome.FAILURE);
                }
            }
        } finally {
            // L-1: the request's place in its key's concurrency is given back however it ended (answered,
            // failed, cancelled, cut, let go at shutdown)
            admission.release();
        }
    }

    private void route(ClientCall call, Trace trace, ResponseSink sink) {
        if (call.key().configError() != null) {
            // D-4: a key whose stored policy cannot be read is refused, never served without its limits
            answers.error(trace, sink, 403, "key.config_error", "this key's stored policy cannot be read; an "
                    + "administrator must save the key again; request " + call.requestId(), Outcome.CLIENT_ERROR);
            return;
        }
        if (call.family() == EndpointFamily.MODELS) {
            answers.models(snapshot.view(), call, trace, sink); // P-9 / P-12: the list or one model
            return;
        }
        if (call.family() == EndpointFamily.COUNT_TOKENS && LocalCountTokens.estimates(
                router.decide(snapshot.view(), LocalCountTokens.asMessages(call), clock.instant()))) {
            answers.tokenEstimate(call, trace, sink); // B-5: the account would be reached by a bridge; no upstream
            return;
        }
        Router.Decision decision = router.decide(snapshot.view(), call, clock.instant());
        if (decision.refusal() != null) {
            refusals.routing(decision, trace, sink);
            return;
        }
        trace.stateBoundUnknown = decision.stateBoundUnknown();
        runAttempts(call, decision.plan(), trace, sink);
    }

    /** Select → try → count → decide (P-3): the decisions are {@link AttemptRules}'; this runs them. */
    private void runAttempts(ClientCall call, Plan plan, Trace trace, ResponseSink sink) {
        Round round = tryCandidates(call, plan, trace, sink, NO_LEASE);
        LeaseWait wait = new LeaseWait(queue);
        while (round.busy() && wait.allowed()) {
            // L-2: every candidate is full: wait in the model's queue for one of them to give a lease back
            Waiter.Wake wake = wait.await(call, round.full(), trace, sink);
            if (wake.outcome() != Waiter.Outcome.GRANTED) {
                refusals.leftQueue(call, wake.outcome(), trace, sink);
                return;
            }
            // the pool may have changed while it waited: plan again, with the handed lease in hand
            Router.Decision again = router.decide(snapshot.view(), call, clock.instant());
            if (again.refusal() != null) {
                leases.release(wake.accountId());
                refusals.routing(again, trace, sink);
                return;
            }
            trace.rejections.clear(); // the explanation shows the round that ran
            round = tryCandidates(call, again.plan(), trace, sink, wake.accountId());
        }
        if (round.answered()) {
            return;
        }
        if (trace.attempts.isEmpty() && trace.bridgeRefusal != null && !round.busy()) {
            refusals.bridgeUnsupported(call, trace, sink); // B-3: no account could serve it
            return;
        }
        Instant now = clock.instant();
        if (round.busy()) {
            refusals.atCapacity(call, trace, sink); // S-5: nothing was tried because everything was full
            return;
        }
        effects.requestFailed(trace, now);
        // P-8': 429 when every attempt hit a rate limit, 503 (Anthropic 529) when every one was overload,
        // 5xx or transport, 502 for a mix; Retry-After = when the soonest of those routes is usable again
        PoolAnswer answer = PoolAnswer.afterAttempts(trace.failedAttempts,
                call.family().protocol() == EndpointFamily.Protocol.ANTHROPIC, now, soonestLeftOut(plan));
        trace.retryAfter(answer.retryAfterSeconds());
        answers.error(trace, sink, answer.status(), answer.code(), answer.type(), "every route failed after "
                + trace.attempts.size() + " attempt(s); request " + call.requestId(), Outcome.FAILURE);
    }

    /** No lease in hand: every account's lease is acquired as the loop reaches it. */
    private static final long NO_LEASE = -1;
    private static final Header JSON_TYPE = new Header("content-type", "application/json");

    /**
     * One pass over the plan's candidates (P-3).
     *
     * @param answered the client has its answer
     * @param busy     S-5: nothing was tried because every candidate was full
     * @param full     the full accounts and this instance's in-flight share of each (what a wait is for)
     */
    private record Round(boolean answered, boolean busy, Map<Long, Integer> full) {
    }

    /** {@code handed}: an account whose lease the request already holds (L-2: handed over in the queue). */
    private Round tryCandidates(ClientCall call, Plan plan, Trace trace, ResponseSink sink, long handed) {
        for (Rejection r : plan.rejections()) {
            // the routes that could have served it; a refusal (Refusals.routing) keeps every rejection
            if (!r.reason().neverCouldServe()) {
                trace.rejections.add(new RejectionRecord(r.accountId(), r.reason().wire()));
            }
        }
        trace.reasonCode = plan.reason().wire();
        int maxAttempts = call.key().policy().maxAttempts();
        Set<Long> tried = new HashSet<>();
        Map<Long, Integer> full = new LinkedHashMap<>();
        boolean handedUsed = false;
        try {
            List<Candidate> candidates = plan.candidates();
            // N-10: a candidate is read only while another attempt is allowed; the rest stays unranked
            for (int i = 0; i < candidates.size() && AttemptRules.mayTryAnother(tried.size(), maxAttempts); i++) {
                Candidate candidate = candidates.get(i);
                Account account = candidate.account();
                if (tried.contains(account.id())) {
                    continue;
                }
                EndpointFamily protocol = Protocols.upstreamFor(account, call.family()); // B-1: native or bridged
                UpstreamRequests.Prepared request;
                try {
                    request = UpstreamRequests.prepare(call, account, protocol, candidate.upstreamModel(),
                            secrets.apiKey(account.id()));
                } catch (BridgeRefusal refusal) {
                    // B-3: this account cannot take the request; another may (a 400 only when none can)
                    trace.rejections.add(new RejectionRecord(account.id(),
                            ReasonCode.REJECTED_BRIDGE_UNSUPPORTED.wire()));
                    trace.bridgeRefusal = trace.bridgeRefusal == null ? refusal : trace.bridgeRefusal;
                    continue;
                }
                Instant pickedAt = clock.instant();
                int limit = router.capacityShare(account.maxInFlight()); // S-5: this instance's share
                boolean held = account.id() == handed && !handedUsed;
                handedUsed |= held;
                // S-5: a full account is skipped this time, with no failure recorded
                if (!held && !leases.tryAcquire(account.id(), limit)) {
                    full.put(account.id(), limit);
                    trace.rejections.add(new RejectionRecord(account.id(),
                            ReasonCode.CAPACITY_OVERFLOW_TO_NEXT.wire()));
                    continue;
                }
                // C-6: an account in half-open admits one trial request at a time; the others skip it
                if (!load.enterTrial(account, pickedAt)) {
                    leases.release(account.id());
                    trace.rejections.add(new RejectionRecord(account.id(), ReasonCode.REJECTED_COOLING.wire()));
                    continue;
                }
                tried.add(account.id());
                try {
                    trace.modelKey = candidate.modelKey();
                    load.picked(account.id(), pickedAt); // S-4: min pick gap and idle bonus read it
                    Asked asked = new Asked(request.request(), protocol, request.tools());
                    Step step = tryAccount(call, candidate, asked, trace, sink);
                    if (step == Step.ANSWERED) {
                        return new Round(true, false, full);
                    }
                    if (step == Step.STOP) {
                        break;
                    }
                } finally {
                    load.exitTrial(account.id());
                    leases.release(account.id());
                }
            }
        } finally {
            if (handed != NO_LEASE && !handedUsed) {
                leases.release(handed); // the plan no longer has it: the next waiter gets it
            }
        }
        return new Round(false, AttemptRules.atCapacity(trace.attempts.size(), !full.isEmpty()), full);
    }

    /** When the first route the plan left out while cooling (or halted) is usable again, or null. */
    private static Instant soonestLeftOut(Plan plan) {
        Instant soonest = null;
        for (var r : plan.rejections()) {
            if (r.until() != null && (soonest == null || r.until().isBefore(soonest))) {
                soonest = r.until();
            }
        }
        return soonest;
    }

    /** Where the loop stands after one account. */
    private enum Step { ANSWERED, NEXT_ACCOUNT, STOP }

    /** One account: attempts until one is answered or {@link AttemptRules#afterFailure} leaves the account. */
    private Step tryAccount(ClientCall call, Candidate candidate, Asked asked, Trace trace, ResponseSink sink) {
        Account account = candidate.account();
        UpstreamRequest request = asked.request();
        Duration interval = Duration.ofMillis(account.failurePolicy().retryIntervalMs());
        int retriesLeft = account.failurePolicy().retryCount();
        EndpointFamily protocol = asked.protocol(); // B-4: the answer's usage is read in the upstream's protocol
        trace.upstreamProtocol = protocol; // the event names the protocol of the last account asked
        while (true) {
            long started = System.nanoTime();
            UpstreamAnswer answer = upstreamAttempt.run(request, protocol, call.peek().stream(), candidate.modelKey());
            long durationMs = (System.nanoTime() - started) / 1_000_000;
            Instant now = clock.instant(); // once per attempt, when the answer is in: the verdict's and the effects'
            AttemptResult result = answer.judged(now);
            switch (result.kind()) {
                case SUCCESS_BUFFERED, SUCCESS_STREAM -> {
                    trace.attempts.add(asked.mark(call, answered(account, result, durationMs)));
                    deliver(call, candidate, asked, result, trace, sink, now);
                    return Step.ANSWERED;
                }
                case CLIENT_ERROR -> {
                    // F-1 None class: the client's own problem, returned as-is, never retried or switched
                    trace.attempts.add(asked.mark(call, answered(account, result, durationMs)));
                    trace.accountId = account.id();
                    trace.groupId = account.groupId();
                    trace.reasonCode = ReasonCode.RETURNED_CLIENT_ERROR.wire();
                    if (asked.bridgedFor(call)) { // B-2: the upstream's error in the client's envelope (masked)
                        BridgeErrors.BridgedError error = BridgeErrors.translate(call.family(), result.status(),
                                new String(result.body(), StandardCharsets.UTF_8), SecretMask.SHAPES);
                        answers.answer(trace, sink, error.status(), List.of(JSON_TYPE), error.body().toString()
                                .getBytes(StandardCharsets.UTF_8), Outcome.CLIENT_ERROR);
                    } else {
                        answers.answer(trace, sink, result.status(), HeaderPolicy.toClient(result.headers()),
                                result.body(), Outcome.CLIENT_ERROR);
                    }
                    return Step.ANSWERED;
                }
                default -> {
                }
            }
            Failure failure = result.failure();
            AttemptRules.Decision decision = AttemptRules.afterFailure(new AttemptRules.FailedAttempt(failure,
                    retriesLeft, interval, call.peek().neverSentTwice(), result.dispatched(),
                    trace.stateBoundUnknown));
            trace.attempts.add(asked.mark(call, failed(account, failure, durationMs, decision.action())));
            if (decision.next() == AttemptRules.Next.SAME_ACCOUNT) {
                retriesLeft--;
                pauser.pause(interval.toMillis());
                continue;
            }
            effects.failed(call, candidate, failure, trace, now);
            trace.reasonCode = decision.reason().wire();
            return decision.next() == AttemptRules.Next.STOP ? Step.STOP : Step.NEXT_ACCOUNT;
        }
    }

    private void deliver(ClientCall call, Candidate candidate, Asked asked, AttemptResult result, Trace trace,
            ResponseSink sink, Instant now) {
        Account account = candidate.account();
        trace.accountId = account.id();
        trace.groupId = account.groupId();
        trace.reasonCode = successReason(trace, candidate).wire();
        boolean bridged = asked.bridgedFor(call);
        if (result.kind() == AttemptResult.Kind.SUCCESS_BUFFERED) {
            AnswerFacts answer = result.answer(); // usage, cost and id from UpstreamAttempt's one read of the body
            trace.usage = answer.usage();
            byte[] body = bridged ? Bridging.answer(call.family(), asked.protocol(), asked.tools(), result.body(), now)
                    : result.body();
            if (body == null) { // B-3: a 2xx the bridge cannot read: the client gets an error, never half an answer
                answers.error(trace, sink, 502, Bridging.UNREADABLE_ANSWER, "the upstream's answer could not be "
                        + "translated to this protocol; request " + call.requestId(), Outcome.FAILURE);
                return;
            }
            effects.delivered(call, candidate, trace, bridged ? null : ResponseIds.of(call.family(), answer),
                    (int) ((System.nanoTime() - trace.startNanos) / 1_000_000), answer.costMicros(), now);
            answers.answer(trace, sink, result.status(), bridged ? Bridging.headers(result.headers())
                    : HeaderPolicy.toClient(result.headers()), body, Outcome.SUCCESS);
            return;
        }
        streams.relay(call, candidate, asked, result, trace, sink);
    }

    /** The decision that put this answer on this account: first pick, a same-account retry, or a switch. */
    private static ReasonCode successReason(Trace trace, Candidate candidate) {
        List<AttemptAction> earlier = trace.attempts.stream().map(a -> AttemptAction.fromWire(a.action())).toList();
        return AttemptRules.successReason(earlier, candidate.why());
    }

    private static AttemptRecord answered(Account account, AttemptResult result, long durationMs) {
        return new AttemptRecord(account.id(), result.status(), null, null, durationMs, AttemptAction.FINAL.wire());
    }

    private static AttemptRecord failed(Account account, Failure failure, long durationMs, AttemptAction action) {
        return new AttemptRecord(account.id(), failure.status(), failure.kind().wire(), failure.scope().wire(),
                durationMs, action.wire());
    }
}
