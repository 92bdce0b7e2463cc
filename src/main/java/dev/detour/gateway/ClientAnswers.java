package dev.detour.gateway;

import dev.detour.core.account.EndpointFamily;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.EventSink;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.RequestEvent;
import dev.detour.gateway.port.RequestEvent.Outcome;
import dev.detour.gateway.port.ResponseSink;
import dev.detour.gateway.wire.DetourErrorBody;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * N-4: how a request ends — one answer written to the client (a whole body, Detour's error envelope in the
 * caller's protocol, or what Detour answers itself: the model list, a token estimate) and exactly one
 * {@link RequestEvent}; D-5: the start journaled before anything can be lost.
 */
final class ClientAnswers {
    private final EventSink events;

    ClientAnswers(EventSink events) {
        this.events = events;
    }

    void error(Trace trace, ResponseSink sink, int status, String code, String message, Outcome outcome) {
        error(trace, sink, status, code, null, message, outcome);
    }

    /** {@code type}: the envelope's error.type (P-8'), or null for the family's default. */
    void error(Trace trace, ResponseSink sink, int status, String code, String type, String message,
            Outcome outcome) {
        EndpointFamily.Protocol protocol = trace.family == null ? EndpointFamily.Protocol.OPENAI
                : trace.family.protocol();
        trace.errorCode = code;
        List<Header> headers = new ArrayList<>(trace.extraHeaders);
        headers.add(new Header("content-type", "application/json"));
        answer(trace, sink, status, headers, DetourErrorBody.of(protocol, code, type, message), outcome);
    }

    /** A whole answer; a client gone before it is written makes the request cancelled. */
    void answer(Trace trace, ResponseSink sink, int status, List<Header> headers, byte[] body, Outcome outcome) {
        trace.status = status;
        sink.begin(status, headers);
        try {
            sink.writeWhole(body);
            finish(trace, outcome, trace.errorCode);
        } catch (ResponseSink.ClientGoneException e) {
            finish(trace, Outcome.CANCELLED, trace.errorCode);
        }
    }

    /** D-5: logged as interrupted if the process dies before the request ends. */
    void started(Trace trace) {
        events.started(trace.toEvent(Outcome.FAILURE, RequestEvent.INTERRUPTED, 0));
    }

    /** The request's one event; a second call does nothing. */
    void finish(Trace trace, Outcome outcome, String errorCode) {
        if (trace.finished) {
            return;
        }
        trace.finished = true;
        events.emit(trace.toEvent(outcome, errorCode, (int) ((System.nanoTime() - trace.startNanos) / 1_000_000)));
    }

    /** P-9 / P-12: the model list or one model, in the caller's protocol, from the snapshot; no upstream. */
    void models(PoolSnapshot.View view, ClientCall call, Trace trace, ResponseSink sink) {
        ModelsEndpoint.Answer models = ModelsEndpoint.answer(view, call);
        trace.errorCode = models.errorCode();
        answer(trace, sink, models.status(), List.of(new Header("content-type", "application/json")),
                models.body(), models.errorCode() == null ? Outcome.SUCCESS : Outcome.CLIENT_ERROR);
    }

    /** B-5: count_tokens estimated here, never forwarded, so no account's health is touched. */
    void tokenEstimate(ClientCall call, Trace trace, ResponseSink sink) {
        byte[] body;
        try {
            body = LocalCountTokens.answer(call.body());
        } catch (IOException e) {
            error(trace, sink, 400, "request.invalid_json", "the body is not valid JSON; request "
                    + call.requestId(), Outcome.CLIENT_ERROR);
            return;
        }
        answer(trace, sink, 200, LocalCountTokens.headers(), body, Outcome.SUCCESS);
    }
}
