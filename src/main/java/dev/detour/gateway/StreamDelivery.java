package dev.detour.gateway;

import dev.detour.bridge.StreamBridge;
import dev.detour.core.failure.Failure;
import dev.detour.core.failure.FailureClassifier;
import dev.detour.core.selection.Candidate;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.RequestEvent.AttemptRecord;
import dev.detour.gateway.port.RequestEvent.Outcome;
import dev.detour.gateway.port.ResponseSink;
import dev.detour.gateway.wire.BridgedStreamRelay;
import dev.detour.gateway.wire.BrokenStreamEnding;
import dev.detour.gateway.wire.HeaderPolicy;
import dev.detour.gateway.wire.ResponseIds;
import dev.detour.gateway.wire.StreamRelay;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A streamed answer whose first frame was fine (P-6): commit the client response, relay every frame (through the
 * bridge for a bridged account, B-3), and end it as delivered, cancelled by the client, or cut — a cut is recorded
 * against the account and ended the way the client's protocol says a stream broke (F-4').
 */
record StreamDelivery(AttemptEffects effects, ClientAnswers answers, Clock clock) {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(StreamDelivery.class);

    void relay(ClientCall call, Candidate candidate, Asked asked, AttemptResult result, Trace trace,
            ResponseSink sink) {
        List<Header> headers = new ArrayList<>(HeaderPolicy.toClient(result.headers()));
        headers.add(new Header("x-accel-buffering", "no"));
        sink.begin(result.status(), headers);
        trace.status = result.status();
        answers.started(trace); // D-5: a stream cut by the process dying is logged with its account and status
        ResponseIds.Sniffer sniffer = new ResponseIds.Sniffer(sink, call.family());
        boolean bridged = asked.bridgedFor(call);
        StreamBridge bridge = bridged ? Bridging.stream(call, asked.protocol(), asked.tools(), clock.instant()) : null;
        StreamRelay.Result relayed = bridged
                ? new BridgedStreamRelay(result.mask(), asked.protocol(), bridge).relay(result.openStream(),
                        result.body(), sniffer)
                : new StreamRelay(result.mask(), asked.protocol()).relay(result.openStream(), result.body(), sniffer);
        Instant ended = clock.instant();
        trace.usage = relayed.usage();
        trace.usageMissing = !relayed.usageSeen(); // P-7': the cost of this stream could not be known
        trace.ttftMs = (int) ((relayed.firstWriteNanos() - trace.startNanos) / 1_000_000);
        if (relayed.clientGone()) {
            effects.cancelled(call, candidate, trace);
            answers.finish(trace, Outcome.CANCELLED, null);
            return;
        }
        if (relayed.truncated() || relayed.upstreamFailure()) {
            // P-6: after the first chunk nothing can be switched; record the truncation, never retry
            Failure failure = FailureClassifier.truncatedStream(result.status(), candidate.modelKey());
            markLastAttempt(trace, failure); // E: the attempt says why it failed
            effects.cut(call, candidate, failure, trace, ended);
            answers.finish(trace, Outcome.FAILURE, BrokenStreamEnding.CODE);
            // F-4': one terminal in the client's protocol — the bridge's translated error event when it wrote one
            endBroken(call, sniffer, bridge == null || !bridge.endWritten());
            return;
        }
        effects.delivered(call, candidate, trace, sniffer.responseId(), trace.ttftMs, relayed.costMicros(), ended);
        answers.finish(trace, Outcome.SUCCESS, null);
    }

    /** The delivered attempt of a stream that broke after its first frame carries the failure's kind and scope. */
    private static void markLastAttempt(Trace trace, Failure failure) {
        int last = trace.attempts.size() - 1;
        AttemptRecord delivered = trace.attempts.get(last);
        trace.attempts.set(last, new AttemptRecord(delivered.accountId(), delivered.status(), failure.kind().wire(),
                failure.scope().wire(), delivered.durationMs(), delivered.action(), delivered.bridgedFrom(),
                delivered.bridgedTo()));
    }

    /**
     * F-4': the client learns the stream broke the way its protocol says so — an error / response.failed
     * frame (Messages, Responses) — and then, like every client, from a body aborted without its
     * terminating chunk (no [DONE] for Chat and Completions). The abort comes after the flushed frame,
     * so an SDK meets the frame first; one that yields response.failed as an ordinary event (openai-node)
     * still raises on the broken body, as it does when the upstream itself cuts.
     */
    private static void endBroken(ClientCall call, ResponseIds.Sniffer sink, boolean withFrame) {
        byte[] frame = withFrame ? BrokenStreamEnding.frame(call.family(), call.requestId(), sink.responseId()) : null;
        try {
            if (frame != null) {
                sink.write(frame, 0, frame.length);
                sink.flush();
            }
            sink.abort();
        } catch (ResponseSink.ClientGoneException e) {
            // the client left as well: there is no one left to tell
        } catch (RuntimeException e) {
            log.warn("request {}: could not end the broken stream visibly", call.requestId(), e);
        }
    }
}
