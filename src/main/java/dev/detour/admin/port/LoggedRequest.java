package dev.detour.admin.port;

import java.time.Instant;

/**
 * One answered request as the request log keeps it; attempts and rejections are JSON text; usageMissing is P-7'.
 * B-4: the usage is normalised (input without cached tokens, output with reasoning, cache writes by lifetime);
 * clientProtocol and upstreamProtocol are EndpointFamily wire names (upstreamProtocol null when no account was
 * asked or the event predates it). queuedMs is L-2 (null: it never waited).
 */
public record LoggedRequest(
        Long id,
        String requestId,
        Long keyId,
        String endpoint,
        String requestedModel,
        String modelKey,
        boolean stream,
        Long accountId,
        Long groupId,
        String outcome,
        int status,
        String errorCode,
        String reasonCode,
        String attemptsJson,
        String rejectionsJson,
        long inputTokens,
        long outputTokens,
        long cacheReadTokens,
        long cacheWrite5mTokens,
        long costMicros,
        Integer ttftMs,
        int latencyMs,
        String clientIp,
        Instant createdAt,
        boolean usageMissing,
        long cacheWrite1hTokens,
        long reasoningTokens,
        String clientProtocol,
        String upstreamProtocol,
        Integer queuedMs) {

    /** How many upstream attempts the chain holds (one JSON object each, each with an account_id). */
    public int attemptCount() {
        int count = 0;
        for (int i = attemptsJson.indexOf("\"account_id\""); i >= 0; i = attemptsJson.indexOf("\"account_id\"", i + 1)) {
            count++;
        }
        return count;
    }
}
