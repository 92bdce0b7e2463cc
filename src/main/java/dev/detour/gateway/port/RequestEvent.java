package dev.detour.gateway.port;

import dev.detour.core.usage.TokenUsage;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The route receipt (SPEC §1): exactly one per client request (N-4), written asynchronously.
 * {@code usageMissing} (P-7'): a relayed stream ended before any usage frame, so its cost is unknown.
 * B-4: {@code endpoint} is the client's protocol (an EndpointFamily wire name), {@code upstreamProtocol}
 * the one the last account was asked in (null when none was asked); {@code usage} is normalised.
 * {@code queuedMs} (L-2): how long it waited in the queue for a lease; null when it never waited.
 */
public record RequestEvent(
        String requestId,
        Long keyId,
        String endpoint,
        String requestedModel,
        String modelKey,
        boolean stream,
        Long accountId,
        Long groupId,
        Outcome outcome,
        int status,
        String errorCode,
        String reasonCode,
        List<AttemptRecord> attempts,
        List<RejectionRecord> rejections,
        TokenUsage usage,
        long costMicros,
        Integer ttftMs,
        int latencyMs,
        String clientIp,
        Instant createdAt,
        boolean usageMissing,
        String upstreamProtocol,
        Integer queuedMs) {

    /** D-5: the error code of a request the process died under (logged from the journal at the next start). */
    public static final String INTERRUPTED = "detour.interrupted";

    /** An event of a request that never waited in the queue. */
    public RequestEvent(String requestId, Long keyId, String endpoint, String requestedModel, String modelKey,
            boolean stream, Long accountId, Long groupId, Outcome outcome, int status, String errorCode,
            String reasonCode, List<AttemptRecord> attempts, List<RejectionRecord> rejections, TokenUsage usage,
            long costMicros, Integer ttftMs, int latencyMs, String clientIp, Instant createdAt, boolean usageMissing,
            String upstreamProtocol) {
        this(requestId, keyId, endpoint, requestedModel, modelKey, stream, accountId, groupId, outcome, status,
                errorCode, reasonCode, attempts, rejections, usage, costMicros, ttftMs, latencyMs, clientIp, createdAt,
                usageMissing, upstreamProtocol, null);
    }

    /** An event of a request that never waited, whose usage is known or that has none to know (buffered answers, refusals, model tests). */
    public RequestEvent(String requestId, Long keyId, String endpoint, String requestedModel, String modelKey,
            boolean stream, Long accountId, Long groupId, Outcome outcome, int status, String errorCode,
            String reasonCode, List<AttemptRecord> attempts, List<RejectionRecord> rejections, TokenUsage usage,
            long costMicros, Integer ttftMs, int latencyMs, String clientIp, Instant createdAt,
            String upstreamProtocol) {
        this(requestId, keyId, endpoint, requestedModel, modelKey, stream, accountId, groupId, outcome, status,
                errorCode, reasonCode, attempts, rejections, usage, costMicros, ttftMs, latencyMs, clientIp, createdAt,
                false, upstreamProtocol, null);
    }

    /** B-4: the client's protocol, the EndpointFamily wire name it called. */
    public String clientProtocol() {
        return endpoint;
    }

    public enum Outcome {
        SUCCESS, FAILURE, CLIENT_ERROR, CANCELLED;

        private final String wire = name().toLowerCase(Locale.ROOT);

        public String wire() {
            return wire;
        }
    }

    /** One upstream attempt: action is retry_same | switch | final. */
    /**
     * B-1: {@code bridgedFrom}/{@code bridgedTo} are the client's and the upstream's protocol when this attempt
     * went through the bridge, both null for a native one.
     */
    public record AttemptRecord(long accountId, Integer status, String failureKind, String scope,
            long durationMs, String action, String bridgedFrom, String bridgedTo) {
        public AttemptRecord(long accountId, Integer status, String failureKind, String scope, long durationMs,
                String action) {
            this(accountId, status, failureKind, scope, durationMs, action, null, null);
        }

        /** The same attempt, marked as bridged from the client's protocol to the upstream's (null: native). */
        public AttemptRecord bridged(String from, String to) {
            return new AttemptRecord(accountId, status, failureKind, scope, durationMs, action, from, to);
        }
    }

    public record RejectionRecord(long accountId, String reason) {
    }
}
