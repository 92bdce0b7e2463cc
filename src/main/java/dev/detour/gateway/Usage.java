package dev.detour.gateway;

/** Token usage as the upstream reported it; zeros when it reported nothing. */
public record Usage(long inputTokens, long outputTokens, long cacheReadTokens, long cacheWriteTokens) {
    public static final Usage NONE = new Usage(0, 0, 0, 0);

    /** Streams report usage piecemeal (Anthropic: input at start, output at end): keep the larger of each. */
    public Usage merge(Usage other) {
        return new Usage(Math.max(inputTokens, other.inputTokens), Math.max(outputTokens, other.outputTokens),
                Math.max(cacheReadTokens, other.cacheReadTokens), Math.max(cacheWriteTokens, other.cacheWriteTokens));
    }
}
