package dev.detour.gateway.wire;

import dev.detour.core.usage.TokenUsage;

/**
 * What one pass over a buffered answer (or one SSE data line) found; {@link AnswerReader} reads it.
 *
 * @param usage         every {@code usage} object merged; {@link TokenUsage#NONE} when there was none
 * @param usageSeen     at least one {@code usage} object was found
 * @param costMicros    S-7: the first {@code usage.cost}, as micros; -1 when absent or negative
 * @param responseId    P-10: the first top-level string {@code id} (1–191 chars), else null
 * @param envelopeClear F-4: one complete JSON object with no field the failure envelope reads
 *                      ({@link dev.detour.core.failure.UpstreamErrorFields#feedsEnvelope}); a 2xx answer
 *                      like this is a success without classifying its text
 */
public record AnswerFacts(TokenUsage usage, boolean usageSeen, long costMicros, String responseId, boolean envelopeClear) {
    public static final AnswerFacts NONE = new AnswerFacts(TokenUsage.NONE, false, -1, null, false);
}
