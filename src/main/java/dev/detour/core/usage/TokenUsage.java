package dev.detour.core.usage;

/**
 * B-4: token usage normalised across protocols. {@code input} excludes cached tokens (Anthropic's
 * convention: OpenAI's prompt/input count includes its cached tokens, so a reader subtracts them);
 * {@code output} includes reasoning tokens (OpenAI's convention; Anthropic counts thinking as output
 * and does not report it apart, so reasoning stays 0 there). Cache writes are split by their lifetime
 * because they are priced apart (5 min ≈ 1.25×, 1 h ≈ 2× the input price).
 */
public record TokenUsage(long input, long output, long cacheRead, long cacheWrite5m, long cacheWrite1h,
        long reasoning) {
    public static final TokenUsage NONE = new TokenUsage(0, 0, 0, 0, 0, 0);

    /** Every prompt token, cached or not: what OpenAI calls prompt_tokens / input_tokens. */
    public long promptTotal() {
        return input + cacheRead + cacheWrite5m + cacheWrite1h;
    }

    public long cacheWrite() {
        return cacheWrite5m + cacheWrite1h;
    }

    /** Streams report usage piecemeal (Anthropic: input at start, output at end): keep the larger of each. */
    public TokenUsage merge(TokenUsage other) {
        return new TokenUsage(Math.max(input, other.input), Math.max(output, other.output),
                Math.max(cacheRead, other.cacheRead), Math.max(cacheWrite5m, other.cacheWrite5m),
                Math.max(cacheWrite1h, other.cacheWrite1h), Math.max(reasoning, other.reasoning));
    }
}
