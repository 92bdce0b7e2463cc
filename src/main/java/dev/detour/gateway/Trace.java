package dev.detour.gateway;

import dev.detour.core.account.EndpointFamily;
import dev.detour.gateway.live.LoadDistribution;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.RequestEvent;
import dev.detour.gateway.port.RequestEvent.AttemptRecord;
import dev.detour.gateway.port.RequestEvent.Outcome;
import dev.detour.gateway.port.RequestEvent.RejectionRecord;
import dev.detour.core.selection.PoolAnswer;
import dev.detour.core.usage.TokenUsage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** What one request did, gathered while it runs and turned into its single {@link RequestEvent}. */
final class Trace {
    final String requestId;
    final Long keyId;
    final EndpointFamily family;
    final String model;
    final boolean stream;
    final String clientIp;
    final Instant receivedAt;
    final long startNanos;
    final List<AttemptRecord> attempts = new ArrayList<>(2);
    final List<RejectionRecord> rejections = new ArrayList<>(0);
    final List<Header> extraHeaders = new ArrayList<>(0);
    /** S-9: the failed accounts of this request, for the group halt decision at its end. */
    final List<LoadDistribution.Failed> failed = new ArrayList<>(0);
    /** P-8': each failed account's verdict and recovery time, for the client-facing status. */
    final List<PoolAnswer.FailedAttempt> failedAttempts = new ArrayList<>(0);
    String modelKey;
    Long accountId;
    Long groupId;
    int status;
    String errorCode;
    String reasonCode;
    TokenUsage usage = TokenUsage.NONE;
    /** B-4: the protocol the last account was asked in; null when no account was asked. */
    EndpointFamily upstreamProtocol;
    Integer ttftMs;
    boolean finished;
    /** P-10': state-bound with no binding: once dispatched to one account, never sent to another. */
    boolean stateBoundUnknown;
    /** Smart keys' request cost: tokens × model price × group ratio, micros. */
    long costMicros;
    /** P-7': a relayed stream ended without any usage frame, so its cost is unknown (not zero). */
    boolean usageMissing;
    /** B-3: the first account the bridge could not serve, why; answered as 400 when no account was asked. */
    dev.detour.bridge.BridgeRefusal bridgeRefusal;
    /** L-2: milliseconds spent waiting in the queue for a lease; null when it never waited. */
    Integer queuedMs;

    Trace(String requestId, Long keyId, EndpointFamily family, String model, boolean stream, String clientIp,
            Instant receivedAt, long startNanos) {
        this.requestId = requestId;
        this.keyId = keyId;
        this.family = family;
        this.model = model;
        this.stream = stream;
        this.clientIp = clientIp;
        this.receivedAt = receivedAt;
        this.startNanos = startNanos;
    }

    RequestEvent toEvent(Outcome outcome, String code, int latencyMs) {
        return new RequestEvent(requestId, keyId, family == null ? "unknown" : family.wire(), model, modelKey, stream,
                accountId, groupId, outcome, status, code, reasonCode, List.copyOf(attempts),
                List.copyOf(rejections), usage, costMicros, ttftMs, latencyMs, clientIp, receivedAt, usageMissing,
                upstreamProtocol == null ? null : upstreamProtocol.wire(), queuedMs);
    }

    /** Tells the client when to try again; nothing when {@code seconds} is not positive. */
    void retryAfter(long seconds) {
        if (seconds > 0) {
            extraHeaders.add(new Header("retry-after", Long.toString(seconds)));
        }
    }
}
