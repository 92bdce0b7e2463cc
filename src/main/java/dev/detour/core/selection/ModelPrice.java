package dev.detour.core.selection;

/**
 * A model's base price in micros (of the site currency) per million tokens, per token class (B-4).
 * Ranking compares one number per route, {@link #blendedMicrosPerM()}: input + output, i.e. a
 * request with as many output as input tokens — monotone in both, the same for every route.
 *
 * <p>A cache class without a price of its own (null) is priced from the input price so that no
 * default charges less than an upstream's published price: cache reads cost what Anthropic (0.1×),
 * OpenAI (0.1×–0.5× by model) and the relays discount differently, so they default to the full input
 * price (what Detour charged for OpenAI's cached tokens before classes existed); cache writes exist
 * only on Anthropic, whose published factors are the defaults (5 min 1.25×, 1 h 2×). Reasoning
 * tokens are output tokens and are charged at the output price.
 */
public record ModelPrice(long inputMicrosPerM, long outputMicrosPerM, Long cacheReadMicrosPerM,
        Long cacheWrite5mMicrosPerM, Long cacheWrite1hMicrosPerM) {

    public ModelPrice {
        if (inputMicrosPerM < 0 || outputMicrosPerM < 0 || negative(cacheReadMicrosPerM)
                || negative(cacheWrite5mMicrosPerM) || negative(cacheWrite1hMicrosPerM)) {
            throw new IllegalArgumentException("model prices cannot be negative");
        }
    }

    /** Input and output only: every cache class takes its default. */
    public ModelPrice(long inputMicrosPerM, long outputMicrosPerM) {
        this(inputMicrosPerM, outputMicrosPerM, null, null, null);
    }

    public long blendedMicrosPerM() {
        long sum = inputMicrosPerM + outputMicrosPerM;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    public long cacheReadPrice() {
        return cacheReadMicrosPerM != null ? cacheReadMicrosPerM : inputMicrosPerM;
    }

    public long cacheWrite5mPrice() {
        return cacheWrite5mMicrosPerM != null ? cacheWrite5mMicrosPerM : scaled(inputMicrosPerM, 5, 4);
    }

    public long cacheWrite1hPrice() {
        return cacheWrite1hMicrosPerM != null ? cacheWrite1hMicrosPerM : scaled(inputMicrosPerM, 2, 1);
    }

    private static long scaled(long price, long numerator, long denominator) {
        return price > Long.MAX_VALUE / numerator ? Long.MAX_VALUE : price * numerator / denominator;
    }

    private static boolean negative(Long price) {
        return price != null && price < 0;
    }
}
