package dev.detour.adapter.db;

import java.time.Instant;

/** request_events as stored; attempts and rejections are JSON text. */
public record EventRow(
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
        long cacheWriteTokens,
        long costMicros,
        Integer ttftMs,
        int latencyMs,
        String clientIp,
        Instant createdAt) {
}
