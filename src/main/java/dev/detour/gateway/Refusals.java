package dev.detour.gateway;

import dev.detour.bridge.BridgeRefusal;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.keys.LimitCheck;
import dev.detour.core.keys.LimitKind;
import dev.detour.core.selection.PoolErrorCode;
import dev.detour.gateway.live.Waiter;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.RequestEvent.Outcome;
import dev.detour.gateway.port.RequestEvent.RejectionRecord;
import dev.detour.gateway.port.ResponseSink;

/**
 * The answers of a request Detour does not send upstream: refused before routing, over its key's
 * limits (L-1), refused by the router (P-8), let go from the wait queue (L-2, D-3), at capacity (S-5), or
 * beyond what the bridge can carry (B-3). Each is one answer and one event, through {@link ClientAnswers}.
 */
final class Refusals {
    private final ClientAnswers answers;

    Refusals(ClientAnswers answers) {
        this.answers = answers;
    }

    /**
     * A refusal before routing, with {@code Retry-After} when positive (X-3 throttling, X-4 a busy body
     * budget); a 5xx is Detour being busy, not the client's fault, so it counts as a failure (like S-5's).
     */
    void beforeRouting(Trace trace, int status, String code, String message, long retryAfterSeconds,
            ResponseSink sink) {
        trace.retryAfter(retryAfterSeconds);
        answers.error(trace, sink, status, code, message, status >= 500 ? Outcome.FAILURE : Outcome.CLIENT_ERROR);
    }

    /** L-1: 429 with the limit's code and Retry-After (when it frees); Anthropic clients get their rate_limit_error. */
    void overLimit(ClientCall call, LimitCheck.Verdict verdict, Trace trace, ResponseSink sink) {
        LimitKind kind = verdict.refusedBy();
        String what = switch (kind) {
            case REQUESTS -> "requests per minute";
            case TOKENS -> "tokens per minute";
            case CONCURRENT -> "requests at once";
            default -> "spend (micros) per " + kind.window().wire();
        };
        trace.retryAfter(verdict.retryAfterSeconds());
        String type = call.family().protocol() == EndpointFamily.Protocol.ANTHROPIC ? "rate_limit_error" : null;
        answers.error(trace, sink, 429, kind.code(), type, "this key's limit of " + verdict.tightest().limit() + " "
                + what + " is reached; retry after " + verdict.retryAfterSeconds() + " s; request "
                + call.requestId(), Outcome.CLIENT_ERROR);
    }

    /** The router's refusal (P-8), with the plan's rejections in the event. */
    void routing(Router.Decision decision, Trace trace, ResponseSink sink) {
        Router.Refusal r = decision.refusal();
        trace.rejections.clear();
        decision.plan().rejections().forEach(rj -> trace.rejections.add(new RejectionRecord(rj.accountId(),
                rj.reason().wire())));
        trace.retryAfter(r.retryAfterSeconds());
        answers.error(trace, sink, r.status(), r.code(), r.type(), r.message(), Outcome.FAILURE);
    }

    /**
     * L-2: the wait ended without a lease. A full queue or the wait bound answers S-5's 503 with
     * {@code Retry-After}; a stop answers D-3's {@code gateway.shutting_down}; a client that went away gets
     * nothing it could read (logged as cancelled).
     */
    void leftQueue(ClientCall call, Waiter.Outcome outcome, Trace trace, ResponseSink sink) {
        trace.retryAfter(1);
        if (outcome == Waiter.Outcome.STOPPING) { // D-3: the honest reason; another instance may serve it now
            answers.error(trace, sink, 503, Forwarder.SHUTTING_DOWN, "Detour is stopping and every route was at its"
                    + " in-flight limit; retry shortly; request " + call.requestId(), Outcome.FAILURE);
            return;
        }
        String why = switch (outcome) {
            case QUEUE_FULL -> "every route is at its in-flight limit and the wait queue for " + call.peek().model()
                    + " is full";
            default -> "every route stayed at its in-flight limit for the whole wait (" + trace.queuedMs + " ms)";
        };
        answers.error(trace, sink, 503, PoolErrorCode.AT_CAPACITY.code(), why + "; retry shortly; request "
                + call.requestId(), outcome == Waiter.Outcome.CLIENT_GONE ? Outcome.CANCELLED : Outcome.FAILURE);
    }

    /** B-3: no account could serve the request natively and the bridge cannot carry a feature it uses. */
    void bridgeUnsupported(ClientCall call, Trace trace, ResponseSink sink) {
        BridgeRefusal refusal = trace.bridgeRefusal;
        answers.error(trace, sink, BridgeRefusal.STATUS, refusal.code(), "invalid_request_error",
                refusal.getMessage() + "; request " + call.requestId(), Outcome.CLIENT_ERROR);
    }

    /** S-5: every candidate was full and the request could not wait: busy, not broken; nothing recorded. */
    void atCapacity(ClientCall call, Trace trace, ResponseSink sink) {
        trace.retryAfter(1);
        answers.error(trace, sink, 503, PoolErrorCode.AT_CAPACITY.code(), "every route is at its in-flight limit;"
                + " retry shortly; request " + call.requestId(), Outcome.FAILURE);
    }
}
